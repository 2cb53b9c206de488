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
# Target: >= 200,000 samples/s stored (the client's --target, which extra arguments may override).
# Exits non-zero when the server or the client fails (a batch not stored whole counts); a missed
# throughput target prints MISSED but exits 0, like import-bench.sh.
#
# Environment:
#   BENCH_INGEST_SAMPLES  samples to send (default: the client's, 500000)
#   BENCH_INGEST_RUNS  whole runs, each against a fresh collector (default 3): the target is judged
#                  on the median run's throughput, and that run's figures are the JSON's. On a shared
#                  VM one run swings by 10-20 %; every run's report is printed
#   BENCH_KEEP=1   keep the work directory (data, logs) and print its path
#   BENCH_SERVE_ARGS="--metrics-address 127.0.0.1:0"  more options for `serve` (what the metrics cost)
#   BENCH_JSON_DIR=DIR  also write every figure and the target verdict to DIR/ingest.json
#   HEALTHETL, INGEST_BENCH  override the binaries used
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)

RUNS=${BENCH_INGEST_RUNS:-3}
case $RUNS in '' | *[!0-9]* | 0) printf 'ingest-bench: BENCH_INGEST_RUNS must be a positive integer, not %s\n' "'$RUNS'" >&2; exit 1 ;; esac
if [ "$RUNS" -gt 1 ]; then
    # Each run is this script once, its JSON in a directory of its own; the median run is the result.
    RUNS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-ingest-runs.XXXXXX") || exit 1
    trap 'rm -rf "$RUNS_DIR"' EXIT
    rc=0
    for run in $(seq 1 "$RUNS"); do
        printf '==> run %s of %s\n' "$run" "$RUNS" >&2
        BENCH_INGEST_RUNS=1 BENCH_JSON_DIR="$RUNS_DIR/$run" "$0" "$@" || rc=$?
    done
    PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 \
        python3 - "$RUNS_DIR" "$RUNS" "${BENCH_JSON_DIR:-}" <<'PY' || rc=$?
import json, os, sys
runs_dir, runs, json_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
documents = []
for run in range(1, runs + 1):
    try:
        documents.append(json.load(open(os.path.join(runs_dir, str(run), "ingest.json"))))
    except (OSError, ValueError):
        print(f"ingest-bench: run {run} wrote no figures", file=sys.stderr)
        sys.exit(1)
rate = lambda d: d["figures"][0].get("samples_per_s") or 0
rates = [rate(d) for d in documents]
# The median run (the lower of the middle two for an even count) stands for the bench.
median = sorted(documents, key=rate)[(len(documents) - 1) // 2]
median["runs_samples_per_s"] = rates
median["failures"] = [f for d in documents for f in d.get("failures", [])]
median["ok"] = not median["failures"]
target = median["targets"][0]
print()
print(f"  {runs} runs: " + " / ".join(f"{r:,}" for r in rates) + f" samples/s; the median run: {rate(median):,}")
print(f"  target     {'met' if target['met'] else 'MISSED'}  {target['text']} (the median of {runs} runs)")
if json_dir:
    os.makedirs(json_dir, exist_ok=True)
    with open(os.path.join(json_dir, "ingest.json"), "w") as out:
        json.dump(median, out, indent=2)
sys.exit(1 if median["failures"] else 0)
PY
    exit "$rc"
fi
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}
INGEST_BENCH=${INGEST_BENCH:-$ROOT/.build/release/healthetl-ingest-bench}
TARGET=200000
CLIENT_ARGS=(--target "$TARGET")
if [ -n "${BENCH_INGEST_SAMPLES:-}" ]; then CLIENT_ARGS+=(--samples "$BENCH_INGEST_SAMPLES"); fi

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'ingest-bench: %s\n' "$*" >&2; exit 1; }

[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
[ -x "$INGEST_BENCH" ] || fail "missing $INGEST_BENCH — swift build -c release --static-swift-stdlib --product healthetl-ingest-bench (make bench builds it)"
if [ -n "${BENCH_JSON_DIR:-}" ]; then mkdir -p "$BENCH_JSON_DIR" || fail "cannot create $BENCH_JSON_DIR"; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-ingest.XXXXXX") || fail "cannot create a work directory"
# shellcheck source=Benchmarks/collector.sh
. "$ROOT/Benchmarks/collector.sh"
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
    stop_collector
    if [ "${BENCH_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A throwaway user and token, in a file only we can read (the collector refuses laxer modes).
TOKEN="bench-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
(umask 077 && printf 'bench %s\n' "$TOKEN" >"$WORK/tokens") || fail "cannot write the tokens file"
chmod 600 "$WORK/tokens"

# BENCH_SERVE_ARGS, split at spaces.
read -r -a SERVE_EXTRA <<<"${BENCH_SERVE_ARGS:-}"
say "starting $(basename "$HEALTHETL") serve ${SERVE_EXTRA[*]} on 127.0.0.1, port 0, data in $WORK/data"
start_collector "${SERVE_EXTRA[@]}"

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
    /usr/bin/time -v -o "$WORK/client.time" "$INGEST_BENCH" --url "$URL" --token "$TOKEN" --report-json "$WORK/client.json" \
        "${CLIENT_ARGS[@]}" "$@"
else
    "$INGEST_BENCH" --url "$URL" --token "$TOKEN" --report-json "$WORK/client.json" "${CLIENT_ARGS[@]}" "$@"
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
grep 'route=/v1/batches' "$WORK/server.err" | grep -o 'duration_ms=[0-9.]*' | cut -d= -f2 | sort -n | tee "$WORK/handler.ms" |
    awk '{ v[NR] = $1; sum += $1 } END {
        if (NR == 0) { print "  handler    (no POST /v1/batches in the access log)"; exit }
        p50 = v[int(NR * 0.50 + 0.999)]; p99 = v[int(NR * 0.99 + 0.999)]
        printf "  handler    collector access log, %d POSTs: p50 %.0f ms, p99 %.0f ms, max %.0f ms, sum %.1f s\n", NR, p50, p99, v[NR], sum / 1000
    }'
echo "  data dir   $(awk -v b="${DATA_LIVE:-0}" 'BEGIN { printf "%.1f MB", b / 1e6 }') at the end of the run (WAL included)," \
    "$(awk -v b="${DATA_CLOSED:-0}" 'BEGIN { printf "%.1f MB", b / 1e6 }') after the collector stopped"
# shellcheck disable=SC2012 # the collector's own file names
(cd "$WORK/data" 2>/dev/null && ls -l | awk 'NR > 1 { printf "             %-24s %10.1f MB\n", $9, $5 / 1e6 }')
errors=$(grep -c -E ' (error|critical) ' "$WORK/server.err" 2>/dev/null)
[ "${errors:-0}" -gt 0 ] && { echo "  collector logged $errors error line(s):"; grep -E ' (error|critical) ' "$WORK/server.err" | head -n 5; }


# The target, from the client's own report, and every figure as JSON when asked (Benchmarks/benchjson.py).
PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 \
    python3 - "$WORK" "$CLIENT_RC" "$STOP_RC" "$CPU_BEFORE" "$CPU_AFTER" "${HWM_KIB:-0}" "${RSS_KIB:-0}" \
    "${DATA_LIVE:-0}" "${DATA_CLOSED:-0}" "$START_NS" "$END_NS" "${errors:-0}" "${BENCH_JSON_DIR:-}" <<'PY'
import json, os, re, sys
import benchjson
(work, client_rc, stop_rc, cpu_before, cpu_after, hwm_kib, rss_kib, data_live, data_closed, start_ns, end_ns,
 errors, json_dir) = sys.argv[1:14]
try:
    client = json.load(open(f"{work}/client.json"))
except (OSError, ValueError):
    client = {}
rate, target = client.get("samplesPerSecond"), client.get("targetSamplesPerSecond", 200000)
met = bool(rate is not None and rate >= target and not client.get("failures"))
text = f"throughput: {'-' if rate is None else format(rate, ',.0f')} samples/s stored (target >= {target:,.0f})"
print(f"  target     {'met' if met else 'MISSED'}  {text}")
if not json_dir:
    sys.exit(0)
def number(text):
    try:
        return float(text)
    except ValueError:
        return None
timing = open(f"{work}/client.time").read() if os.path.exists(f"{work}/client.time") else ""
def field(pattern):
    m = re.search(pattern, timing)
    return float(m.group(1)) if m else None
user, system, client_rss = field(r"User time \(seconds\): ([\d.]+)"), field(r"System time \(seconds\): ([\d.]+)"), \
    field(r"Maximum resident set size \(kbytes\): (\d+)")
handler = sorted(float(line) for line in open(f"{work}/handler.ms").read().split()) if os.path.exists(f"{work}/handler.ms") else []
def pct(p): return handler[min(len(handler) - 1, max(0, int(len(handler) * p + 0.999) - 1))] if handler else None
server_cpu = None if number(cpu_after) is None or number(cpu_before) is None else round(number(cpu_after) - number(cpu_before), 2)
send = client.get("wallSeconds")
failures = []
if int(client_rc) != 0:
    failures.append(f"the client failed (exit {client_rc})")
if int(stop_rc) != 0:
    failures.append(f"the collector exited with {stop_rc} after SIGTERM")
figures = [{
    "name": "collector ingest",
    "samples": client.get("samples"),
    "samples_stored": client.get("samplesStored"),
    "batches": client.get("batches"),
    "batch_size": client.get("batchSize"),
    "concurrency": client.get("concurrency"),
    "send_wall_s": send,
    "samples_per_s": None if rate is None else round(rate),
    "zstd_mb_per_s": client.get("megabytesPerSecond"),
    "latency_p50_ms": client.get("latencyP50Ms"),
    "latency_p99_ms": client.get("latencyP99Ms"),
    "server_peak_rss_mib": round(int(hwm_kib) / 1024, 1),
    "server_rss_end_mib": round(int(rss_kib) / 1024, 1),
    "server_cpu_s": server_cpu,
    "server_cores_busy": round(server_cpu / send, 2) if server_cpu is not None and send else None,
    "handler_p50_ms": pct(0.5),
    "handler_p99_ms": pct(0.99),
    "client_cpu_s": None if user is None or system is None else round(user + system, 2),
    "client_peak_rss_mib": None if client_rss is None else round(client_rss / 1024, 1),
    "data_mb_live": round(int(data_live) / 1e6, 1),
    "data_mb_closed": round(int(data_closed) / 1e6, 1),
    "collector_error_lines": int(errors),
}]
targets = [benchjson.target("ingest throughput", met, None if rate is None else round(rate),
                            f">= {target:,.0f} samples/s", text)]
benchjson.write_document(os.path.join(json_dir, "ingest.json"), "ingest",
                         "Collector ingest through HTTP (healthetl-ingest-bench -> healthetl serve, SQLite)",
                         figures, targets, failures, client=client)
PY

[ "$CLIENT_RC" -eq 0 ] || fail "the client failed (exit $CLIENT_RC)"
[ "$STOP_RC" -eq 0 ] || fail "the collector exited with $STOP_RC after SIGTERM"
exit 0
