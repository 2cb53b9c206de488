#!/usr/bin/env bash
# Runs the release-build benchmarks. `make bench` builds first.
#
# healthetl-bench times the import path's pieces (timestamp parse, normalize, store commit, synthetic
# generation) and the daily-rollup calculators the collector refreshes with, on BENCH_RECORDS
# records, then `healthetl simulate --days` loads synthetic history into a fresh store (the writer
# should be the limit). Both print their figures as text lines.
#
# Environment:
#   BENCH_RECORDS        records for healthetl-bench (default 1000000)
#   BENCH_SIMULATE_DAYS  days for the simulate load (default 365)
#   BENCH_JSON_DIR=DIR   also write the figures (the text lines, parsed) to DIR/components.json
#   HEALTHETL, HEALTHETL_BENCH  override the binaries used
set -euo pipefail
case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
cd "$(dirname "$0")/.."
HEALTHETL=${HEALTHETL:-.build/release/healthetl}
HEALTHETL_BENCH=${HEALTHETL_BENCH:-.build/release/healthetl-bench}

store=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-simulate.XXXXXX")
trap 'rm -rf "$store"' EXIT
"$HEALTHETL_BENCH" "${BENCH_RECORDS:-1000000}" | tee "$store/lines.txt"

# Loading synthetic history into a fresh store: the writer should be the limit.
"$HEALTHETL" --store "$store/store" simulate --days "${BENCH_SIMULATE_DAYS:-365}" --seed 1 --json |
    python3 -c '
import json, sys
r = json.load(sys.stdin)
n = sum(lane["records"] for lane in r["lanes"].values())
print("simulate --days load %s records in %.2f s = %s /s, store writer busy %d %% of the run"
      % (format(n, ","), r["elapsed_s"], format(int(r["records_per_s"]), ","), r["writer_busy"] * 100))' |
    tee -a "$store/lines.txt"

if [ -n "${BENCH_JSON_DIR:-}" ]; then
    mkdir -p "$BENCH_JSON_DIR"
    # The JSON document: Benchmarks/benchjson.py.
    PYTHONPATH="$PWD/Benchmarks" PYTHONDONTWRITEBYTECODE=1 \
        python3 - "$store/lines.txt" "$BENCH_JSON_DIR/components.json" "${BENCH_SIMULATE_DAYS:-365}" <<'PY'
import re, sys
import benchjson
lines = [l.rstrip() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
figures, records = [], None
for line in lines:
    if m := re.match(r"healthetl benchmarks: (\d+) records each", line):
        records = int(m.group(1))
    elif m := re.match(r"simulate --days load ([\d,]+) records in ([\d.]+) s = ([\d,]+) /s, store writer busy (\d+) %", line):
        figures.append({"name": f"simulate --days {sys.argv[3]} load", "records": int(m.group(1).replace(",", "")),
                        "wall_s": float(m.group(2)), "per_s": int(m.group(3).replace(",", "")),
                        "writer_busy_percent": int(m.group(4))})
    elif m := re.match(r"peak RSS (\d+) MiB", line):
        figures.append({"name": "healthetl-bench peak RSS", "peak_rss_mib": int(m.group(1))})
    elif m := re.match(r"(\S.*?)\s+(\d+) /s\s*(.*)$", line):
        figures.append({"name": m.group(1), "per_s": int(m.group(2)), "note": m.group(3).strip("() ") or None})
benchjson.write_document(sys.argv[2], "components", "The import path's pieces (healthetl-bench) and the simulate load",
                         figures, [], [], records=records, lines=lines)
PY
fi
