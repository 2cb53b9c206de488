#!/usr/bin/env bash
# health-auto-export-bench.sh — the Health Auto Export benchmarks `make bench` runs after the release build.
#
# 1. File import: writes a Health Auto Export JSON file of about 1 M samples
#    (healthetl simulate --export health-auto-export --days N --heart-rate-interval 5) and times
#    `healthetl --store S import FILE --json` under /usr/bin/time -v: samples/s against >= 300,000,
#    peak RSS against <= 100 MB.
# 2. The receiver: starts `healthetl receive` on a loopback port and posts pushes of 5,000 samples
#    each (every push new data) from two keep-alive connections for a fixed count; prints pushes/s
#    against >= 50 and the p50/p99 of the server's own request time (its access log's duration_ms=: reading,
#    committing and answering) against p99 <= 50 ms.
#
# Builds nothing: it expects .build/release/healthetl. Exits non-zero only when a tool fails; a
# missed target prints MISSED.
#
# Environment:
#   BENCH_HAE_DAYS     days in the file (default 57: about 1.0 M samples at one heart-rate point per 5 s)
#   BENCH_HAE_PUSHES   pushes to the receiver (default 400)
#   BENCH_KEEP=1       keep the work directory and print its path
#   BENCH_JSON_DIR=DIR also write every figure and target verdict to DIR/health-auto-export.json
#   HEALTHETL          override the binary
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
DAYS=${BENCH_HAE_DAYS:-57}
PUSHES=${BENCH_HAE_PUSHES:-400}
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'health-auto-export-bench: %s\n' "$*" >&2; exit 1; }

for value in "$DAYS" "$PUSHES"; do
    case $value in '' | *[!0-9]*) fail "BENCH_HAE_DAYS and BENCH_HAE_PUSHES must be positive integers" ;; esac
done
[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
/usr/bin/time -v true >/dev/null 2>&1 || fail "GNU /usr/bin/time is unavailable (apt-get install time)"
if [ -n "${BENCH_JSON_DIR:-}" ]; then mkdir -p "$BENCH_JSON_DIR" || fail "cannot create $BENCH_JSON_DIR"; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-hae-bench.XXXXXX") || fail "cannot create a work directory"
RECEIVER=
cleanup() {
    [ -n "$RECEIVER" ] && kill "$RECEIVER" 2>/dev/null
    if [ "${BENCH_KEEP:-0}" = 1 ]; then say "keeping $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

say "writing a Health Auto Export file of $DAYS days"
"$HEALTHETL" simulate --export health-auto-export "$WORK/export.json" --days "$DAYS" --heart-rate-interval 5 \
    --json >"$WORK/written.json" || fail "the generator failed"
say "importing it into a fresh store"
/usr/bin/time -v "$HEALTHETL" --store "$WORK/store" import "$WORK/export.json" --json >"$WORK/import.out" \
    2>"$WORK/import.time" || fail "the import failed (see $WORK/import.time)"

say "starting the receiver"
umask 077
mkdir -p "$WORK/receiving"
TOKEN=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf 'bench %s\n' "$TOKEN" >"$WORK/tokens"
"$HEALTHETL" --store "$WORK/receiving" receive --port 0 --token-file "$WORK/tokens" \
    >"$WORK/receive.out" 2>"$WORK/receive.log" &
RECEIVER=$!
for _ in $(seq 1 100); do grep -q listening "$WORK/receive.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$WORK/receive.out" | head -n 1)
[ -n "$PORT" ] || fail "the receiver did not start (see $WORK/receive.log)"
say "posting $PUSHES pushes of 5,000 samples to port $PORT"
python3 - "$PORT" "$TOKEN" "$PUSHES" >"$WORK/client.out" <<'PY' || fail "the push client failed"
import http.client, json, sys, threading, time
port, token, pushes = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
def body(index):
    # 5,000 heart-rate readings a second apart, in a range no other push has.
    start = 1_700_000_000 + index * 5_000
    points = []
    for second in range(5_000):
        t = time.gmtime(start + second)
        date = time.strftime("%Y-%m-%d %H:%M:%S +0000", t)
        points.append('{"Min":%d,"Avg":%d,"Max":%d,"date":"%s","source":"Apple Watch"}' % ((60 + second % 50,) * 3 + (date,)))
    return ('{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[' + ",".join(points) + "]}]}}").encode()
bodies = [body(i) for i in range(pushes)]
failures = []
def client(indices):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    for i in indices:
        connection.request("POST", "/hae", body=bodies[i], headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        if response.status != 200 or answer.get("stored") != 5_000:
            failures.append((i, response.status, answer))
started = time.monotonic()
threads = [threading.Thread(target=client, args=(range(k, pushes, 2),)) for k in range(2)]
for thread in threads: thread.start()
for thread in threads: thread.join()
elapsed = time.monotonic() - started
print(json.dumps({"pushes": pushes, "elapsed_s": elapsed, "failures": failures[:3], "failed": len(failures)}))
PY
kill "$RECEIVER" 2>/dev/null
wait "$RECEIVER" 2>/dev/null
RECEIVER=

# The report (its JSON document: Benchmarks/benchjson.py).
PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 python3 - "$WORK" "${BENCH_JSON_DIR:-}" <<'PY'
import json, os, re, sys
import benchjson
work, json_dir = sys.argv[1], sys.argv[2]
figures, targets = [], []
def target(name, met, value, limit, text):
    targets.append(benchjson.target(name, met, value, limit, text))
def write_json():
    if json_dir:
        benchjson.write_document(os.path.join(json_dir, "health-auto-export.json"), "health-auto-export",
                                 "Health Auto Export: JSON file import and the push receiver", figures, targets, [],
                                 file_records=written["records"], file_bytes=written["bytes"])
written = json.load(open(f"{work}/written.json"))
report = json.load(open(f"{work}/import.out"))
timing = open(f"{work}/import.time").read()
wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", timing)
seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", timing).group(1)) / 1024
stored = report["accepted"] + report["flagged"] + report["correlation_components"]["stored"]
print(f"file: {written['records']:,} records, {written['bytes'] / 1e6:.1f} MB of JSON")
print(f"import: {seconds:.2f} s, {stored:,} samples stored, {stored / seconds:,.0f} samples/s, {written['bytes'] / 1e6 / seconds:.1f} MB/s, peak RSS {rss:.1f} MB")
rate = stored / seconds
print(f"target >= 300,000 samples/s: {'met' if rate >= 300_000 else 'MISSED'} ({rate:,.0f})")
print(f"target peak RSS <= 100 MB: {'met' if rss <= 100 else 'MISSED'} ({rss:.1f} MB)")
figures.append({"name": "file import", "wall_s": seconds, "samples": stored, "samples_per_s": round(rate),
                "mb_per_s": round(written["bytes"] / 1e6 / seconds, 1), "peak_rss_mb": round(rss, 1)})
target("file import throughput", rate >= 300_000, round(rate), ">= 300,000 samples/s",
       f"file import {rate:,.0f} samples/s (target >= 300,000)")
target("file import peak RSS", rss <= 100, round(rss, 1), "<= 100 MB", f"file import peak RSS {rss:.1f} MB (target <= 100 MB)")
client = json.loads(open(f"{work}/client.out").read())
times = sorted(float(m) for m in re.findall(r"duration_ms=([\d.]+) method=POST request_id=\S+ route=/hae status=200", open(f"{work}/receive.log").read()))
if client["failed"] or len(times) != client["pushes"]:
    print(f"receiver: {client['failed']} pushes failed {client['failures']}, {len(times)} answered 200: MISSED")
    target("receiver pushes", False, None, "every push stored",
           f"receiver: {client['failed']} pushes failed, {len(times)} of {client['pushes']} answered 200")
    write_json()
    sys.exit(0)
rate = client["pushes"] / client["elapsed_s"]
p50 = times[len(times) // 2]
p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
print(f"receiver: {client['pushes']} pushes of 5,000 samples in {client['elapsed_s']:.2f} s: {rate:.1f} pushes/s ({rate * 5000:,.0f} samples/s); request time p50 {p50:.1f} ms, p99 {p99:.1f} ms")
print(f"target >= 50 pushes/s: {'met' if rate >= 50 else 'MISSED'} ({rate:.1f})")
print(f"target p99 <= 50 ms: {'met' if p99 <= 50 else 'MISSED'} ({p99:.1f} ms)")
figures.append({"name": "receiver", "pushes": client["pushes"], "wall_s": round(client["elapsed_s"], 3),
                "pushes_per_s": round(rate, 1), "samples_per_s": round(rate * 5000), "request_p50_ms": p50,
                "request_p99_ms": p99})
target("receiver pushes/s", rate >= 50, round(rate, 1), ">= 50 pushes/s", f"receiver {rate:.1f} pushes/s (target >= 50)")
target("receiver p99", p99 <= 50, p99, "<= 50 ms", f"receiver request time p99 {p99:.1f} ms (target <= 50 ms)")
write_json()
PY
