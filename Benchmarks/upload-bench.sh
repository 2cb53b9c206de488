#!/usr/bin/env bash
# upload-bench.sh — end to end: store → serialize → zstd → HTTP → collector → SQLite.
#
# Loads a store with `healthetl simulate` (BENCH_UPLOAD_DAYS days of BENCH_UPLOAD_PEOPLE people,
# 1,000,000+ samples by default: the target is set at 1 M), starts the release collector on
# 127.0.0.1 (port 0), then times `healthetl upload` shipping all of it (batches of 5,000 through
# the retry queue) and, as the command does, pulling the collector's projections back, with the
# client's peak RSS, and checks the collector holds every local sample. A second store of twice
# the size, sent to the same collector, shows whether the client's memory stays flat.
#
# Targets: >= 100,000 samples/s end to end, the 2x store's client peak RSS <= 1.25x the 1x one,
# every local sample on the collector. Builds nothing: it expects .build/release/healthetl.
# Exits non-zero only when a tool fails; a missed target prints MISSED.
#
# Environment:
#   BENCH_UPLOAD_DAYS    simulated days per person (default 180)
#   BENCH_UPLOAD_PEOPLE  simulated people in the 1x store (default 6; the 2x store has twice as many)
#   BENCH_KEEP=1         keep the work directory and print its path
#   BENCH_JSON_DIR=DIR   also write every figure and target verdict to DIR/upload.json
#   HEALTHETL            override the binary
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}
DAYS=${BENCH_UPLOAD_DAYS:-180}
PEOPLE=${BENCH_UPLOAD_PEOPLE:-6}
TARGET=100000

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'upload-bench: %s\n' "$*" >&2; exit 1; }
[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
if [ -n "${BENCH_JSON_DIR:-}" ]; then mkdir -p "$BENCH_JSON_DIR" || fail "cannot create $BENCH_JSON_DIR"; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-upload.XXXXXX") || fail "cannot create a work directory"
SERVER_PID=
cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null; fi
    if [ "${BENCH_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

TOKEN="bench-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
(umask 077 && printf 'bench %s\n' "$TOKEN" >"$WORK/tokens" && printf '%s\n' "$TOKEN" >"$WORK/token")
"$HEALTHETL" serve --host 127.0.0.1 --port 0 --data "$WORK/data" --tokens "$WORK/tokens" >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
URL=
for _ in $(seq 1 300); do
    URL=$(sed -n 's/^healthetl collector listening on \(http:\/\/[^ ]*\).*/\1/p' "$WORK/server.out" | head -n 1)
    [ -n "$URL" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || fail "the collector exited before listening: $(cat "$WORK/server.err")"
    sleep 0.1
done
[ -n "$URL" ] || fail "the collector did not start"

# upload_run NAME PEOPLE SEED: loads a store, uploads it, prints "samples seconds rss_kb".
upload_run() {
    local store="$WORK/$1" people=$2
    "$HEALTHETL" --store "$store" simulate --days "$DAYS" --people "$people" --seed "$3" --changes-per-day 0 --json >/dev/null \
        || fail "simulate failed"
    local samples
    samples=$(count "$store/healthetl.sqlite")
    /usr/bin/time -v -o "$WORK/$1.time" "$HEALTHETL" --store "$store" upload --endpoint "$URL" --token-file "$WORK/token" \
        --json >"$WORK/$1.json" 2>"$WORK/$1.err" || fail "upload failed: $(cat "$WORK/$1.err")"
    local seconds rss
    seconds=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$WORK/$1.time" | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/$1.time")
    echo "$samples $seconds $rss"
}

# Rows in a database's samples table (python3's sqlite3 module: no extra package needed).
count() { python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM samples").fetchone()[0])' "$1"; }
say "loading and uploading ${PEOPLE} people × ${DAYS} days"
read -r SAMPLES SECONDS_1 RSS_1 < <(upload_run one "$PEOPLE" 11)
say "loading and uploading $((PEOPLE * 2)) people × ${DAYS} days (memory check)"
read -r SAMPLES_2 SECONDS_2 RSS_2 < <(upload_run two $((PEOPLE * 2)) 12)
# upload_run's fail ends only its subshell: an empty figure is a failed run.
if [ -z "${SECONDS_1:-}" ] || [ -z "${SECONDS_2:-}" ] || [ -z "${RSS_1:-}" ] || [ -z "${RSS_2:-}" ]; then
    fail "a load or upload run failed (see above)"
fi
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null; SERVER_PID=
STORED=$(count "$WORK/data/healthetl.sqlite")
# Both stores' distinct ids: simulated people can write identical samples (same source, time and
# value), which have one id and are stored once.
EXPECTED=$(python3 -c 'import sqlite3, sys
ids = set()
for path in sys.argv[1:]:
    ids.update(row[0] for row in sqlite3.connect(path).execute("SELECT id FROM samples"))
print(len(ids))' "$WORK/one/healthetl.sqlite" "$WORK/two/healthetl.sqlite")

rate=$(awk -v n="$SAMPLES" -v s="$SECONDS_1" 'BEGIN { printf "%d", n / s }')
ratio=$(awk -v a="$RSS_2" -v b="$RSS_1" 'BEGIN { printf "%.2f", a / b }')
echo
echo "healthetl upload benchmark (store → zstd JSON → HTTP → collector → SQLite, batches of 5000)"
printf '  %-22s %10s samples in %6.2f s = %8s samples/s, client peak RSS %6.1f MB\n' "1x store" "$SAMPLES" "$SECONDS_1" "$rate" "$(awk -v k="$RSS_1" 'BEGIN{print k/1024}')"
printf '  %-22s %10s samples in %6.2f s, client peak RSS %6.1f MB (%sx the 1x run)\n' "2x store" "$SAMPLES_2" "$SECONDS_2" "$(awk -v k="$RSS_2" 'BEGIN{print k/1024}')" "$ratio"
printf '  %-22s %10s samples (the stores hold %s)\n' "collector holds" "$STORED" "$EXPECTED distinct"
verdict() { if [ "$1" = 1 ]; then echo "    ok      $2"; else echo "    MISSED  $2"; fi; }
MET_SPEED=$([ "$rate" -ge "$TARGET" ] && echo 1)
MET_FLAT=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.25) ? 1 : 0 }')
MET_COMPLETE=$([ "$STORED" = "$EXPECTED" ] && echo 1)
verdict "$MET_SPEED" "speed: $rate samples/s (target >= $TARGET)"
verdict "$MET_FLAT" "flat memory: 2x store RSS = ${ratio}x (target <= 1.25x)"
verdict "$MET_COMPLETE" "complete: every local sample is on the collector"

if [ -n "${BENCH_JSON_DIR:-}" ]; then
    # The JSON document: Benchmarks/benchjson.py.
    PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 \
        python3 - "$BENCH_JSON_DIR/upload.json" "$TARGET" "$DAYS" "$PEOPLE" \
        "$SAMPLES" "$SECONDS_1" "$RSS_1" "$SAMPLES_2" "$SECONDS_2" "$RSS_2" "$STORED" "$EXPECTED" \
        "$rate" "$ratio" "${MET_SPEED:-0}" "${MET_FLAT:-0}" "${MET_COMPLETE:-0}" <<'PY'
import sys
import benchjson
(path, target, days, people, samples1, seconds1, rss1, samples2, seconds2, rss2, stored, expected, rate, ratio,
 met_speed, met_flat, met_complete) = sys.argv[1:18]
def run(name, people, samples, seconds, rss):
    return {"name": name, "people": people, "days": int(days), "samples": int(samples), "wall_s": float(seconds),
            "samples_per_s": round(int(samples) / float(seconds)), "client_peak_rss_mb": round(int(rss) / 1024, 1)}
figures = [run("1x store", int(people), samples1, seconds1, rss1),
           run("2x store", 2 * int(people), samples2, seconds2, rss2)]
targets = [
    benchjson.target("upload throughput", met_speed == "1", int(rate), f">= {int(target):,} samples/s",
                     f"speed: {rate} samples/s (target >= {target})"),
    benchjson.target("flat client memory", met_flat == "1", float(ratio), "<= 1.25x",
                     f"flat memory: 2x store RSS = {ratio}x (target <= 1.25x)"),
    benchjson.target("complete", met_complete == "1", int(stored), f"{int(expected)} samples",
                     "complete: every local sample is on the collector"),
]
benchjson.write_document(path, "upload",
                         "End to end: store -> zstd JSON -> HTTP -> collector -> SQLite (healthetl upload)",
                         figures, targets, [], collector_samples=int(stored), distinct_local_samples=int(expected))
PY
fi
