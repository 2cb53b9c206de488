#!/usr/bin/env bash
# ingest-bench.sh — collector ingest through HTTP, client and server on this machine.
#
# Starts the release `healthetl serve` on 127.0.0.1 (port 0) over a fresh temporary data directory
# and a temporary 0600 tokens file, runs `healthetl-ingest-bench` against it (batches of 5,000
# samples, zstd JSON, 4 requests in flight by default), then reports the server's peak RSS and CPU
# time, its own per-request handler times (from the access log), and the data directory's size,
# and stops the server with SIGTERM.
#
# Builds nothing: it expects .build/release/healthetl and .build/release/healthetl-ingest-bench
# (`make bench` builds both). Extra arguments go to the client, e.g.
#   ./Benchmarks/ingest-bench.sh --concurrency 2 --samples 1000000 --cpu-splits
# Exits non-zero when the server or the client fails (a batch not stored whole counts); a missed
# throughput target prints the verdict FAIL but exits 0, like import-bench.sh.
#
# Environment:
#   BENCH_KEEP=1   keep the work directory (data, logs) and print its path
#   HEALTHETL, INGEST_BENCH  override the binaries used
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}
INGEST_BENCH=${INGEST_BENCH:-$ROOT/.build/release/healthetl-ingest-bench}

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'ingest-bench: %s\n' "$*" >&2; exit 1; }

[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
[ -x "$INGEST_BENCH" ] || fail "missing $INGEST_BENCH — swift build -c release --product healthetl-ingest-bench"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-ingest.XXXXXX") || fail "cannot create a work directory"
SERVER_PID=
cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null
        wait "$SERVER_PID" 2>/dev/null
    fi
    if [ "${BENCH_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A throwaway user and token, in a file only we can read (the collector refuses laxer modes).
TOKEN="bench-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
(umask 077 && printf 'bench %s\n' "$TOKEN" >"$WORK/tokens") || fail "cannot write the tokens file"
chmod 600 "$WORK/tokens"

say "starting $(basename "$HEALTHETL") serve on 127.0.0.1, port 0, data in $WORK/data"
"$HEALTHETL" serve --host 127.0.0.1 --port 0 --data "$WORK/data" --tokens "$WORK/tokens" \
    >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!

URL=
for _ in $(seq 1 300); do
    URL=$(sed -n 's/^healthetl collector listening on \(http:\/\/[^ ]*\).*/\1/p' "$WORK/server.out" | head -n 1)
    [ -n "$URL" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.err" >&2; SERVER_PID=; fail "the collector exited before listening"; }
    sleep 0.1
done
[ -n "$URL" ] || { tail -n 20 "$WORK/server.err" >&2; fail "the collector did not print its address within 30 s"; }
say "collector listening on $URL (pid $SERVER_PID)"

# CPU seconds (user+system) a process has used so far, from /proc/PID/stat.
cpu_seconds() {
    awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$1/stat" 2>/dev/null || echo "?"
}
# CPU seconds the whole machine has spent busy (all cores), from /proc/stat.
machine_busy() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.2f", ($2 + $3 + $4 + $7 + $8 + $9) / hz }' /proc/stat; }
status_kib() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status" 2>/dev/null; }

CPU_BEFORE=$(cpu_seconds "$SERVER_PID")
BUSY_BEFORE=$(machine_busy)
START_NS=$(date +%s%N)
if command -v /usr/bin/time >/dev/null 2>&1 && /usr/bin/time -v true >/dev/null 2>&1; then
    /usr/bin/time -v -o "$WORK/client.time" "$INGEST_BENCH" --url "$URL" --token "$TOKEN" --report-json "$WORK/client.json" "$@"
else
    "$INGEST_BENCH" --url "$URL" --token "$TOKEN" --report-json "$WORK/client.json" "$@"
fi
CLIENT_RC=$?
END_NS=$(date +%s%N)
BUSY_AFTER=$(machine_busy)

kill -0 "$SERVER_PID" 2>/dev/null || { tail -n 20 "$WORK/server.err" >&2; SERVER_PID=; fail "the collector died during the run"; }
CPU_AFTER=$(cpu_seconds "$SERVER_PID")
HWM_KIB=$(status_kib "$SERVER_PID" VmHWM)
RSS_KIB=$(status_kib "$SERVER_PID" VmRSS)
DATA_LIVE=$(du -sb "$WORK/data" 2>/dev/null | cut -f1)

say "stopping the collector (SIGTERM)"
kill -TERM "$SERVER_PID"
STOP_RC=0
wait "$SERVER_PID" || STOP_RC=$?
SERVER_PID=
DATA_CLOSED=$(du -sb "$WORK/data" 2>/dev/null | cut -f1)

echo
echo "  collector  peak RSS (VmHWM) $((${HWM_KIB:-0} / 1024)) MiB, RSS at the end $((${RSS_KIB:-0} / 1024)) MiB," \
    "exit status after SIGTERM $STOP_RC"
# The collector idles while the client prepares its bodies: its CPU time is the sending's.
SEND_S=$(grep -o '"wallSeconds":[0-9.e+-]*' "$WORK/client.json" 2>/dev/null | cut -d: -f2)
awk -v before="$CPU_BEFORE" -v after="$CPU_AFTER" -v s="$START_NS" -v e="$END_NS" -v send="${SEND_S:-0}" 'BEGIN {
    cpu = after - before
    if (send >= 0.5) printf "  CPU        collector %.1f CPU-s while the client sent for %.2f s = %.2f cores busy (of %d)\n", cpu, send, cpu / send, '"$(nproc)"'
    else printf "  CPU        collector %.1f CPU-s over the client run of %.1f s\n", cpu, (e - s) / 1e9
}'
if [ -f "$WORK/client.time" ]; then
    awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
        END { printf "             client %.1f CPU-s (generation and encoding included), peak RSS %d MiB\n", u + s, r / 1024 }' "$WORK/client.time"
    # Whatever else ran meanwhile took cores from both: a busy machine makes the numbers low.
    awk -F': ' -v b0="$BUSY_BEFORE" -v b1="$BUSY_AFTER" -v c0="$CPU_BEFORE" -v c1="$CPU_AFTER" -v s="$START_NS" -v e="$END_NS" \
        '/User time/ { u = $2 } /System time/ { t = $2 } END {
            other = (b1 - b0) - (c1 - c0) - (u + t); if (other < 0) other = 0
            printf "             other processes %.1f CPU-s during the %.1f s run%s\n", other, (e - s) / 1e9,
                (other > 0.5 && other > 0.1 * (e - s) / 1e9 ? "  (a busy machine: expect lower, noisier numbers)" : "")
        }' "$WORK/client.time"
fi
# The collector's own view of each POST /v1/batches (access log: handler time, body read included).
grep 'path=/v1/batches' "$WORK/server.err" | grep -o 'ms=[0-9.]*' | cut -d= -f2 | sort -n |
    awk '{ v[NR] = $1; sum += $1 } END {
        if (NR == 0) { print "  handler    (no POST /v1/batches in the access log)"; exit }
        p50 = v[int(NR * 0.50 + 0.999)]; p99 = v[int(NR * 0.99 + 0.999)]
        printf "  handler    collector access log, %d POSTs: p50 %.0f ms, p99 %.0f ms, max %.0f ms, sum %.1f s\n", NR, p50, p99, v[NR], sum / 1000
    }'
echo "  data dir   $(awk -v b="${DATA_LIVE:-0}" 'BEGIN { printf "%.1f MB", b / 1e6 }') at the end of the run (WAL included)," \
    "$(awk -v b="${DATA_CLOSED:-0}" 'BEGIN { printf "%.1f MB", b / 1e6 }') after the collector stopped"
(cd "$WORK/data" 2>/dev/null && ls -l | awk 'NR > 1 { printf "             %-24s %10.1f MB\n", $9, $5 / 1e6 }')
errors=$(grep -c -E ' (error|critical) ' "$WORK/server.err" 2>/dev/null)
[ "${errors:-0}" -gt 0 ] && { echo "  collector logged $errors error line(s):"; grep -E ' (error|critical) ' "$WORK/server.err" | head -n 5; }

[ "$CLIENT_RC" -eq 0 ] || fail "the client failed (exit $CLIENT_RC)"
[ "$STOP_RC" -eq 0 ] || fail "the collector exited with $STOP_RC after SIGTERM"
exit 0
