#!/usr/bin/env bash
# export-bench.sh — the export and report benchmarks `make bench` runs after the release build.
#
# 1. A store of five simulated years (healthetl simulate --days 1826: about 1.8 M samples, two
#    sources, blood-pressure panels, sleep, workouts).
# 2. `healthetl export --format csv|ndjson|fhir --out FILE` of all of it, each under
#    /usr/bin/time -v: samples/s against >= 500,000 (CSV, NDJSON) and >= 150,000 (FHIR), with the
#    file written, flushed to disk and renamed into place; peak RSS. The same export of the last
#    year only shows the memory does not grow with the store.
# 3. `healthetl report` of the five years: seconds against < 3, the file's size against < 5 MB.
#
# Builds nothing: it expects .build/release/healthetl. Exits non-zero only when a tool fails; a
# missed target prints MISSED.
#
# Environment:
#   BENCH_EXPORT_DAYS  simulated days (default 1826)
#   BENCH_KEEP=1       keep the work directory and print its path
#   BENCH_JSON_DIR=DIR also write every figure and target verdict to DIR/export.json
#   HEALTHETL          override the binary
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
DAYS=${BENCH_EXPORT_DAYS:-1826}
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'export-bench: %s\n' "$*" >&2; exit 1; }

case $DAYS in '' | *[!0-9]*) fail "BENCH_EXPORT_DAYS must be a positive integer" ;; esac
[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
/usr/bin/time -v true >/dev/null 2>&1 || fail "GNU /usr/bin/time is unavailable (apt-get install time)"
if [ -n "${BENCH_JSON_DIR:-}" ]; then mkdir -p "$BENCH_JSON_DIR" || fail "cannot create $BENCH_JSON_DIR"; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-export-bench.XXXXXX") || fail "cannot create a work directory"
cleanup() { if [ "${BENCH_KEEP:-0}" = 1 ]; then say "keeping $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT

ORIGIN=2026-01-01
say "simulating $DAYS days into a store"
"$HEALTHETL" --store "$WORK/store" simulate --days "$DAYS" --origin "$ORIGIN" --json >"$WORK/simulate.json" \
    || fail "simulate failed"
LAST=$(date -u -d "$ORIGIN -1 day" +%F)
FIRST=$(date -u -d "$ORIGIN -$DAYS days" +%F)
YEAR_AGO=$(date -u -d "$ORIGIN -365 days" +%F)

# seconds and peak RSS (MB) out of a /usr/bin/time -v report
elapsed() {
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$1"
}
rss_mb() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }
json_number() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

printf '\n%-28s %12s %10s %14s %10s %8s  %s\n' "export" "samples" "seconds" "samples/s" "target" "RSS MB" "verdict"
for format in csv ndjson fhir; do
    target=500000
    [ "$format" = fhir ] && target=150000
    /usr/bin/time -v "$HEALTHETL" --store "$WORK/store" export --format "$format" --out "$WORK/all.$format" --json \
        >"$WORK/$format.json" 2>"$WORK/$format.time" || fail "export $format failed (see $WORK/$format.time)"
    samples=$(json_number "$WORK/$format.json" records)
    seconds=$(elapsed "$WORK/$format.time")
    rate=$(awk -v n="$samples" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
    verdict=$(awk -v r="$rate" -v t="$target" 'BEGIN { print (r >= t ? "met" : "MISSED") }')
    printf '%-28s %12s %10s %14s %10s %8s  %s\n' "$format, 5 years" "$samples" "$seconds" "$rate" ">= $target" \
        "$(rss_mb "$WORK/$format.time")" "$verdict"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$format, all" "$samples" "$seconds" "$rate" "$target" \
        "$(rss_mb "$WORK/$format.time")" "$verdict" >>"$WORK/figures.tsv"
    rm -rf "$WORK/all.$format"
done
/usr/bin/time -v "$HEALTHETL" --store "$WORK/store" export --format csv --from "$YEAR_AGO" --to "$LAST" \
    --out "$WORK/year.csv" --json >"$WORK/year.json" 2>"$WORK/year.time" || fail "the one-year export failed"
printf '%-28s %12s %10s %14s %10s %8s  %s\n' "csv, last year (memory)" "$(json_number "$WORK/year.json" records)" \
    "$(elapsed "$WORK/year.time")" "" "" "$(rss_mb "$WORK/year.time")" "RSS flat: compare with 5 years"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "csv, last year" "$(json_number "$WORK/year.json" records)" \
    "$(elapsed "$WORK/year.time")" "" "" "$(rss_mb "$WORK/year.time")" "" >>"$WORK/figures.tsv"

/usr/bin/time -v "$HEALTHETL" --store "$WORK/store" report --from "$FIRST" --to "$LAST" --out "$WORK/report.html" \
    --json >"$WORK/report.json" 2>"$WORK/report.time" || fail "the report failed (see $WORK/report.time)"
seconds=$(elapsed "$WORK/report.time")
bytes=$(stat -c %s "$WORK/report.html")
printf '\n%-28s %10s %10s %12s %10s %8s  %s\n' "report" "days" "seconds" "target" "MB" "target" "verdict"
printf '%-28s %10s %10s %12s %10s %8s  %s\n' "5 years" "$DAYS" "$seconds" "< 3" \
    "$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1048576 }')" "< 5" \
    "$(awk -v s="$seconds" -v b="$bytes" 'BEGIN { print (s < 3 && b < 5242880 ? "met" : "MISSED") }')"

if [ -n "${BENCH_JSON_DIR:-}" ]; then
    # The JSON document: Benchmarks/benchjson.py.
    PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 \
        python3 - "$WORK" "$BENCH_JSON_DIR/export.json" "$DAYS" "$seconds" "$bytes" \
        "$(rss_mb "$WORK/report.time")" <<'PY'
import sys
import benchjson
work, path, days, report_s, report_bytes, report_rss = sys.argv[1:7]
figures, targets = [], []
for line in open(f"{work}/figures.tsv", encoding="utf-8").read().splitlines():
    name, samples, seconds, rate, target, rss, verdict = line.split("\t")
    figures.append({"name": f"export {name}", "samples": int(samples), "wall_s": float(seconds),
                    "samples_per_s": int(rate) if rate else None, "peak_rss_mb": int(rss)})
    if target:
        targets.append(benchjson.target(
            f"export {name.split(',')[0]}", verdict == "met", int(rate), f">= {int(target):,} samples/s",
            f"{name.split(',')[0]} export: {int(rate):,} samples/s (target >= {int(target):,})"))
seconds, megabytes = float(report_s), int(report_bytes) / 1048576
figures.append({"name": f"report, {days} days", "wall_s": seconds, "file_mib": round(megabytes, 2),
                "peak_rss_mb": int(report_rss)})
targets.append(benchjson.target("report time", seconds < 3, seconds, "< 3 s",
                                f"report of {days} days in {seconds:.2f} s (target < 3 s)"))
targets.append(benchjson.target("report size", megabytes < 5, round(megabytes, 2), "< 5 MiB",
                                f"report file {megabytes:.2f} MiB (target < 5 MiB)"))
benchjson.write_document(path, "export", f"Export (CSV, NDJSON, FHIR) and HTML report of {days} simulated days",
                         figures, targets, [], days=int(days))
PY
fi
