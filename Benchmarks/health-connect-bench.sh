#!/usr/bin/env bash
# health-connect-bench.sh — the Health Connect import benchmark `make bench` runs after the release build.
#
# Writes a synthetic Health Connect export with at least 2 M rows (series points included:
# healthetl simulate --export health-connect --days N --heart-rate-interval 5), then times, in one run:
#   first   healthetl --store S import "Health Connect.zip" --json   (a fresh store)
#   next    the next export of the same phone (--previous) into the same store (the snapshot diff)
# each under /usr/bin/time -v for wall time and peak RSS, and prints samples/s against the
# targets: >= 500,000 samples/s into the store and peak RSS <= 100 MB.
#
# Builds nothing: it expects .build/release/healthetl. Exits non-zero only when a tool fails; a
# missed target prints MISSED.
#
# Environment:
#   BENCH_HC_DAYS   days of data (default 120: about 2.1 M rows at one heart-rate point per 5 s)
#   BENCH_KEEP=1    keep the work directory and print its path
#   BENCH_JSON_DIR=DIR  also write every figure and target verdict to DIR/health-connect.json
#   HEALTHETL       override the binary
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
DAYS=${BENCH_HC_DAYS:-120}
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'health-connect-bench: %s\n' "$*" >&2; exit 1; }

case $DAYS in '' | *[!0-9]*) fail "BENCH_HC_DAYS must be a positive integer, not '$DAYS'" ;; esac
[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
/usr/bin/time -v true >/dev/null 2>&1 || fail "GNU /usr/bin/time is unavailable (apt-get install time)"
if [ -n "${BENCH_JSON_DIR:-}" ]; then mkdir -p "$BENCH_JSON_DIR" || fail "cannot create $BENCH_JSON_DIR"; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-hc-bench.XXXXXX") || fail "cannot create a work directory"
if [ "${BENCH_KEEP:-0}" = 1 ]; then say "keeping $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi

say "writing a Health Connect export of $DAYS days"
"$HEALTHETL" simulate --export health-connect "$WORK/first.zip" --days "$DAYS" --heart-rate-interval 5 --json \
    >"$WORK/first.json" || fail "the generator failed"
"$HEALTHETL" simulate --export health-connect "$WORK/next.zip" --previous "$WORK/first.zip" --json \
    >"$WORK/next.json" || fail "the generator failed (--previous)"

run() { # name zip
    /usr/bin/time -v "$HEALTHETL" --store "$WORK/store" import "$2" --json >"$WORK/$1.out" 2>"$WORK/$1.time" ||
        fail "$1: the import failed (see $WORK/$1.time)"
}
say "importing the first export into a fresh store"
run first "$WORK/first.zip"
say "importing the next export (the snapshot diff)"
run next "$WORK/next.zip"

# The report (its JSON document: Benchmarks/benchjson.py).
PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 python3 - "$WORK" "$DAYS" "${BENCH_JSON_DIR:-}" <<'PY'
import json, os, re, sys
import benchjson
work, days, json_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
figures, targets = [], []
rows = json.load(open(f"{work}/first.json"))["rows"]
print(f"export: {rows:,} rows ({json.load(open(f'{work}/first.json'))['zip_bytes'] / 1e6:.1f} MB zip)")
print(f"{'run':<6} {'wall s':>8} {'samples':>10} {'samples/s':>11} {'tombstones':>10} {'peak RSS MB':>12}")
for name in ("first", "next"):
    report = json.load(open(f"{work}/{name}.out"))
    timing = open(f"{work}/{name}.time").read()
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", timing)
    seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", timing).group(1)) / 1024
    stored = report["accepted"] + report["flagged"] + report["duplicates"]
    print(f"{name:<6} {seconds:>8.2f} {stored:>10,} {stored / seconds:>11,.0f} {report['tombstones']:>10,} {rss:>12.1f}")
    figures.append({"name": name, "wall_s": seconds, "samples": stored, "samples_per_s": round(stored / seconds),
                    "tombstones": report["tombstones"], "peak_rss_mb": round(rss, 1)})
    if name == "first":
        rate = stored / seconds
        print(f"target >= 500,000 samples/s: {'met' if rate >= 500_000 else 'MISSED'} ({rate:,.0f})")
        print(f"target peak RSS <= 100 MB: {'met' if rss <= 100 else 'MISSED'} ({rss:.1f} MB)")
        targets.append(benchjson.target("import throughput", rate >= 500_000, round(rate), ">= 500,000 samples/s",
                                        f"first import {rate:,.0f} samples/s (target >= 500,000)"))
        targets.append(benchjson.target("peak RSS", rss <= 100, round(rss, 1), "<= 100 MB",
                                        f"first import peak RSS {rss:.1f} MB (target <= 100 MB)"))
if json_dir:
    benchjson.write_document(
        os.path.join(json_dir, "health-connect.json"), "health-connect",
        "Health Connect import (a first export, then the next one's snapshot diff)", figures, targets, [],
        days=days, export_rows=rows, export_zip_bytes=json.load(open(f"{work}/first.json"))["zip_bytes"])
PY
