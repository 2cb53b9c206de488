#!/usr/bin/env bash
# scale-bench.sh — "linear to 4 GB": the Apple Health import at growing export sizes.
#
# First, for each size in BENCH_SCALE_RECORDS:
#   generate  healthetl simulate --export apple-health export-N.zip --records N --seed S --json
#             (streams; under /usr/bin/time -v: its wall time and peak RSS, which must stay flat too)
# Then BENCH_SCALE_RUNS rounds, each importing every size once, smallest first (the sizes take
# turns, so a slow minute of a shared VM falls on all of them rather than on one size's runs):
#   import    healthetl --store S import export-N.zip --json into a fresh store, under
#             /usr/bin/time -v with the zip in the page cache: per size, the median run's wall and
#             CPU seconds, µs per record and MiB/s of XML (the generator's `bytes`), every run's wall
#             time beside it, and the highest peak RSS of the runs. On a shared VM one run swings by
#             10-20 %, more than the 5 % the flatness target allows
#   disk      in the last round, du of the store directory right after the import (as the import
#             left it: its WAL may still be there) and again after `healthetl --store S status --json`
#             (which opens and closes the store, so SQLite checkpoints the WAL into the database),
#             each in MB per million samples stored (the import's accepted + flagged)
# Each store is deleted after its import, the exports at the end. Before generating a size it
# checks the free space (df) against an estimate of what its export and store take (from the
# sizes generated so far) and skips a size that would not fit, saying so. 16,000,000 records is
# about 7 GB of XML, 0.5 GB of zip and 3 GB of store.
#
# Targets: time per record flat within 5 % from 1,000,000 records up (max/min of µs per record over
# those sizes <= 1.05; a smaller export carries the start-up's fixed cost), import peak RSS <= 100 MB
# at every size (SQLite's page cache included), the generator's peak RSS flat (max/min <= 1.25).
#
# Builds nothing: it expects .build/release/healthetl. Exits non-zero only when a tool fails (a
# size it skips for want of disk is not a failure); a missed target prints MISSED.
#
# Environment:
#   BENCH_SCALE_RECORDS  the sizes, in top-level Records (default "250000 1000000 4000000 16000000")
#   BENCH_SEED           generator seed (default 1)
#   BENCH_SCALE_RUNS     imports per size, the median counts (default 5: with 3, one slow 16 M run
#                        of a shared VM moved the median by the 5 % the target allows)
#   BENCH_KEEP=1         keep the work directory (logs only: exports and stores go as soon as measured)
#   BENCH_JSON=PATH      also write every figure and target verdict as one JSON object to PATH
#   BENCH_JSON_DIR=DIR   the same into DIR/scale.json (when BENCH_JSON is unset)
#   HEALTHETL, PYTHON    override the binaries used
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
case ${BENCH_JSON:-} in '' | /*) ;; *) BENCH_JSON=$(pwd)/$BENCH_JSON ;; esac
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)

SIZES=${BENCH_SCALE_RECORDS:-250000 1000000 4000000 16000000}
SEED=${BENCH_SEED:-1}
RUNS=${BENCH_SCALE_RUNS:-5}
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}
PYTHON=${PYTHON:-python3}
JSON_OUT=${BENCH_JSON:-}
[ -z "$JSON_OUT" ] && [ -n "${BENCH_JSON_DIR:-}" ] && JSON_OUT=$BENCH_JSON_DIR/scale.json

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'scale-bench: %s\n' "$*" >&2; exit 1; }

read -r -a SIZE_LIST <<<"$SIZES"
[ "${#SIZE_LIST[@]}" -ge 1 ] || fail "BENCH_SCALE_RECORDS names no size"
for n in "${SIZE_LIST[@]}"; do
    case $n in '' | *[!0-9]*) fail "BENCH_SCALE_RECORDS must be positive integers, not '$n'" ;; esac
    [ "$n" -ge 10 ] || fail "every size in BENCH_SCALE_RECORDS must be at least 10, not $n"
done
case $SEED in '' | *[!0-9]*) fail "BENCH_SEED must be a non-negative integer, not '$SEED'" ;; esac
case $RUNS in '' | *[!0-9]* | 0) fail "BENCH_SCALE_RUNS must be a positive integer, not '$RUNS'" ;; esac
[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
command -v "$PYTHON" >/dev/null 2>&1 || fail "python3 is required (report)"
/usr/bin/time -v true >/dev/null 2>&1 || fail "GNU /usr/bin/time is unavailable (apt-get install time)"
if [ -n "$JSON_OUT" ]; then
    mkdir -p "$(dirname "$JSON_OUT")" || fail "cannot create the directory of $JSON_OUT"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-scale.XXXXXX") || fail "cannot create a work directory"
cleanup() {
    rm -rf "$WORK"/export-*.zip "$WORK/store"
    if [ "${BENCH_KEEP:-0}" = 1 ]; then say "kept $WORK (logs)"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$WORK/logs"

# Bytes a size needs on disk, checked before it is generated (the exports of smaller sizes are on
# disk by then): its zip, per record as the last size generated took it (at first 40 bytes), and
# its store, 300 bytes a record (about twice what one takes); half again for the store's WAL and
# temporary growth, and 256 MiB to spare. The XML is never written.
ZIP_PER_RECORD=40
STORE_PER_RECORD=300
needed_bytes() { echo $(($1 * (ZIP_PER_RECORD + STORE_PER_RECORD) * 3 / 2 + 268435456)); }
free_bytes() { df -P -B1 "$WORK" | awk 'NR == 2 { print $4 }'; }
json_field() { "$PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], 0))' "$1" "$2" 2>/dev/null; }

# measure NAME command...: logs/NAME.{out,err,time,rc}
measure() {
    local name=$1
    shift
    /usr/bin/time -v -o "$WORK/logs/$name.time" "$@" >"$WORK/logs/$name.out" 2>"$WORK/logs/$name.err"
    echo $? >"$WORK/logs/$name.rc"
}

GENERATED=()
for n in "${SIZE_LIST[@]}"; do
    need=$(needed_bytes "$n")
    free=$(free_bytes)
    if [ -n "$free" ] && [ "$free" -lt "$need" ]; then
        reason="needs about $((need / 1000000)) MB of free disk, only $((free / 1000000)) MB are free"
        say "skipping $n records: $reason"
        echo "$reason" >"$WORK/logs/skip-$n"
        continue
    fi
    say "$n records: generating export-$n.zip (seed $SEED)"
    measure "gen-$n" "$HEALTHETL" simulate --export apple-health "$WORK/export-$n.zip" --records "$n" --seed "$SEED" --json
    if [ "$(cat "$WORK/logs/gen-$n.rc")" -ne 0 ]; then
        say "$n records: the generator failed (exit $(cat "$WORK/logs/gen-$n.rc"))"
        rm -rf "$WORK/export-$n.zip"
        continue
    fi
    # What a record's zip took, for the next size's disk check.
    zip_bytes=$(stat -c %s "$WORK/export-$n.zip" 2>/dev/null || echo 0)
    ZIP_PER_RECORD=$((zip_bytes / n + 1))
    GENERATED+=("$n")
done

for run in $(seq 1 "$RUNS"); do
    for n in "${GENERATED[@]}"; do
        say "$n records: importing export-$n.zip into a fresh store (round $run of $RUNS)"
        rm -rf "$WORK/store"
        cat "$WORK/export-$n.zip" >/dev/null 2>&1 # the zip in the page cache, as in import-bench.sh
        sync                                        # and the last run's writes on disk, not in this one's time
        measure "import-$n-$run" "$HEALTHETL" --store "$WORK/store" import "$WORK/export-$n.zip" --json
        if [ "$run" -eq "$RUNS" ]; then
            # The disk figures are the last round's store.
            du -sb "$WORK/store" 2>/dev/null | cut -f1 >"$WORK/logs/du-$n"
            "$HEALTHETL" --store "$WORK/store" status --json >"$WORK/logs/status-$n.json" 2>"$WORK/logs/status-$n.err" ||
                say "$n records: status --json failed (exit $?)"
            du -sb "$WORK/store" 2>/dev/null | cut -f1 >"$WORK/logs/du-settled-$n"
            say "$n records: $(json_field "$WORK/logs/import-$n-$run.out" accepted) samples accepted, exit $(cat "$WORK/logs/import-$n-$run.rc")"
        fi
        rm -rf "$WORK/store"
    done
done
rm -rf "$WORK"/export-*.zip

# The report (the JSON document and the targets block: Benchmarks/benchjson.py).
PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 "$PYTHON" - "$WORK" "$SEED" "$JSON_OUT" "$RUNS" "${SIZE_LIST[@]}" <<'PY'
import os, re, sys
import benchjson

work, seed, json_out, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
sizes = [int(n) for n in sys.argv[5:]]
logs = os.path.join(work, "logs")
MIB = 1048576

def read(name, default=None): return benchjson.read_text(os.path.join(logs, name), default)
def last_json(name): return benchjson.last_json(read(name))
def timing(name): return benchjson.timing(logs, name)  # wall, cpu, rss, rc — or None if the run did not happen

def tail(name, lines=6):
    text = (read(f"{name}.err", "") or "").strip().splitlines()
    return "\n".join("      " + l for l in text[-lines:]) or "      (no output on stderr)"

failures, figures, skipped = [], [], []
for n in sizes:
    reason = read(f"skip-{n}")
    if reason is not None:
        skipped.append({"records": n, "reason": reason.strip()})
        figures.append({"records": n, "status": "skipped: " + reason.strip()})
        continue
    gen_t, summary = timing(f"gen-{n}"), last_json(f"gen-{n}.out") or {}
    row = {"records": n, "status": "ok"}
    if gen_t is None or gen_t["rc"] != 0:
        failures.append(f"{n:,} records: the generator failed (exit {gen_t and gen_t['rc']}):\n{tail(f'gen-{n}')}")
        row["status"] = "FAILED (generator)"
        figures.append(row)
        continue
    row.update({"xml_bytes": summary.get("bytes"), "zip_bytes": summary.get("zip_bytes"),
                "generate_wall_s": gen_t["wall"],
                "generate_peak_rss_mb": None if gen_t["rss"] is None else round(gen_t["rss"] / 1e6, 1)})
    measured, failed = [], None
    for run in range(1, runs + 1):
        name = f"import-{n}-{run}"
        imp_t, report = timing(name), last_json(f"{name}.out")
        if imp_t is None or not (imp_t["rc"] == 0 or (imp_t["rc"] == 3 and report is not None)) or report is None:
            failed = (name, imp_t and imp_t["rc"])
            break
        measured.append((imp_t, report))
    if failed is not None:
        name, rc = failed
        failures.append(f"{n:,} records: the import failed (exit {rc}):\n{tail(name)}")
        row["status"] = f"FAILED (import, exit {rc})"
        figures.append(row)
        continue
    # The median run by wall time (the lower of the middle two for an even count) stands for the size.
    by_wall = sorted(measured, key=lambda m: m[0]["wall"] or 0)
    imp_t, report = by_wall[(len(by_wall) - 1) // 2]
    peaks = [m[0]["rss"] for m in measured if m[0]["rss"] is not None]
    if imp_t["rc"] == 3:
        row["status"] = "partial (exit 3)"
    samples = (report.get("accepted") or 0) + (report.get("flagged") or 0)
    store = int((read(f"du-{n}", "0") or "0").strip() or 0)
    settled = int((read(f"du-settled-{n}", "0") or "0").strip() or 0)
    status = last_json(f"status-{n}.json") or {}
    wall = imp_t["wall"]
    row.update({
        "import_wall_s": wall,
        "import_cpu_s": None if imp_t["cpu"] is None else round(imp_t["cpu"], 2),
        "us_per_record": round(wall * 1e6 / n, 3) if wall else None,
        "xml_mib_per_s": round(summary.get("bytes", 0) / MIB / wall, 2) if wall else None,
        "import_runs_wall_s": [m[0]["wall"] for m in measured],
        "peak_rss_mb": round(max(peaks) / 1e6, 1) if peaks else None,
        "samples": samples,
        "store_samples": (status.get("samples") or {}).get("total"),
        "store_bytes_after_import": store,
        "store_bytes": settled,
        "store_mb_per_million_samples_after_import": round(store / 1e6 / (samples / 1e6), 1) if samples else None,
        "store_mb_per_million_samples": round(settled / 1e6 / (samples / 1e6), 1) if samples and settled else None,
    })
    figures.append(row)

def num(value, fmt):
    width = re.match(r"\d*", fmt).group(0)
    return format("-", f">{width}") if value is None else format(value, fmt)

print()
print("healthetl scale benchmark: the Apple Health import at growing sizes (each into a fresh store)")
print(f"  machine  {os.cpu_count()} cores, seed {seed}; {runs} import(s) per size: the median run's times, the highest RSS")
print()
header = (f"  {'records':>11} {'xml MiB':>9} {'zip MB':>8} {'gen s':>7} {'gen RSS MB':>10} {'import s':>9} "
          f"{'CPU s':>8} {'µs/record':>9} {'MiB/s':>7} {'RSS MB':>7} {'samples':>11} {'MB/M samples':>12} "
          f"{'(as left)':>10}  status")
print(header)
print("  " + "-" * (len(header) - 2))
for r in figures:
    xml = None if r.get("xml_bytes") is None else r["xml_bytes"] / MIB
    zipped = None if r.get("zip_bytes") is None else r["zip_bytes"] / 1e6
    print(f"  {r['records']:>11,} {num(xml, '9,.1f')} {num(zipped, '8,.1f')} {num(r.get('generate_wall_s'), '7.2f')} "
          f"{num(r.get('generate_peak_rss_mb'), '10.1f')} {num(r.get('import_wall_s'), '9.2f')} "
          f"{num(r.get('import_cpu_s'), '8.2f')} {num(r.get('us_per_record'), '9.2f')} {num(r.get('xml_mib_per_s'), '7.1f')} "
          f"{num(r.get('peak_rss_mb'), '7.1f')} {num(r.get('samples'), '11,')} "
          f"{num(r.get('store_mb_per_million_samples'), '12.1f')} "
          f"{num(r.get('store_mb_per_million_samples_after_import'), '10.1f')}  {r['status']}")
print("  MB/M samples: the store's disk use per million samples once its WAL is checkpointed (after a status);")
print("  (as left): right after the import, with whatever WAL the import left beside the database")
if runs > 1:
    print("  import wall s of every run: " + "; ".join(
        f"{r['records']:,}: " + " / ".join(f"{w:.2f}" for w in r["import_runs_wall_s"])
        for r in figures if r.get("import_runs_wall_s")))
print()
for s in skipped:
    print(f"  skipped {s['records']:,} records: {s['reason']}")
if skipped:
    print()

targets = []
def spread(key, label, limit, name, smallest=0):
    measured = [r for r in figures if r.get(key) and r['records'] >= smallest]
    values = [r[key] for r in measured]
    if len(values) < 2:
        targets.append(benchjson.target(name, False, None, f"<= {limit}",
                                        f"{label}: fewer than two sizes measured (target max/min <= {limit})"))
        return
    ratio = max(values) / min(values)
    lo = min(measured, key=lambda r: r[key])
    hi = max(measured, key=lambda r: r[key])
    targets.append(benchjson.target(name, ratio <= limit, round(ratio, 3), f"<= {limit}",
                                    f"{label}: max/min = {hi[key]:g} ({hi['records']:,} records) / {lo[key]:g} "
                                    f"({lo['records']:,} records) = {ratio:.2f} (target <= {limit})"))
spread("us_per_record", "time per record (µs) from 1,000,000 records", 1.05, "time per record flat",
       smallest=1_000_000)
rss = [r for r in figures if r.get('peak_rss_mb')]
if rss:
    top = max(rss, key=lambda r: r['peak_rss_mb'])
    targets.append(benchjson.target("import peak RSS", top['peak_rss_mb'] <= 100, top['peak_rss_mb'], "<= 100 MB",
                                    f"import peak RSS: at most {top['peak_rss_mb']:g} MB ({top['records']:,} records; "
                                    f"target <= 100 MB at every size)"))
else:
    targets.append(benchjson.target("import peak RSS", False, None, "<= 100 MB", "import peak RSS: no size measured"))
spread("generate_peak_rss_mb", "generator peak RSS (MB)", 1.25, "generator peak RSS flat")

benchjson.print_targets(targets, failures)

if json_out:
    benchjson.write_document(json_out, "scale", "Linear to 4 GB: the Apple Health import at growing sizes",
                             figures, targets, failures, seed=seed, sizes=sizes, skipped=skipped, runs=runs)
    print(f"  figures written to {json_out}")
    print()
sys.exit(1 if failures else 0)
PY
