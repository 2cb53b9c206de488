#!/usr/bin/env bash
# mcp-bench.sh — `healthetl mcp` as an assistant's client sees it, after the release build.
#
# 1. A store of about 4 M samples: `healthetl simulate --days N` (default 4100 simulated days,
#    about a thousand samples a day: steps, energy, heart rate, sleep, workouts).
# 2. Benchmarks/mcp_bench.py calls `daily` over the last year (step_count, heart_rate) and
#    `insights` over the last 90 days, 50 times each after a first call timed on its own, twice:
#    as JSON-RPC written by hand on the server's pipes (the server's round trip: p95 against
#    <= 100 ms each; its peak RSS, /usr/bin/time -v, against <= 60 MB), and through the official
#    MCP Python SDK (the tests' pinned venv), whose call_tool also validates every answer against
#    the tool's output schema (shown beside, no target).
#
# Builds nothing: it expects .build/release/healthetl. Exits non-zero only when a tool fails; a
# missed target prints MISSED.
#
# Environment:
#   BENCH_MCP_DAYS     simulated days (default 4100)
#   BENCH_KEEP=1       keep the work directory and print its path
#   BENCH_JSON_DIR=DIR also write every figure and target verdict to DIR/mcp.json
#   HEALTHETL          override the binary
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
DAYS=${BENCH_MCP_DAYS:-4100}
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'mcp-bench: %s\n' "$*" >&2; exit 1; }

case $DAYS in '' | *[!0-9]*) fail "BENCH_MCP_DAYS must be a positive integer" ;; esac
[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
/usr/bin/time -v true >/dev/null 2>&1 || fail "GNU /usr/bin/time is unavailable (apt-get install time)"
if [ -n "${BENCH_JSON_DIR:-}" ]; then mkdir -p "$BENCH_JSON_DIR" || fail "cannot create $BENCH_JSON_DIR"; fi
PYTHON=$("$ROOT/Tests/tools/test-venv.sh") || fail "the Python tools' venv could not be installed"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-mcp-bench.XXXXXX") || fail "cannot create a work directory"
cleanup() { if [ "${BENCH_KEEP:-0}" = 1 ]; then say "keeping $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT

ORIGIN=2026-01-01
LAST=$(date -u -d "$ORIGIN -1 day" +%F)
say "simulating $DAYS days into a store"
"$HEALTHETL" --store "$WORK/store" simulate --days "$DAYS" --origin "$ORIGIN" --json >"$WORK/simulate.json" \
    || fail "simulate failed"
"$HEALTHETL" --store "$WORK/store" status --json >"$WORK/status.json" || fail "status failed"
say "calling the tools"
"$PYTHON" "$ROOT/Benchmarks/mcp_bench.py" "$HEALTHETL" "$WORK/store" "$LAST" "$WORK/server.time" 50 \
    >"$WORK/calls.json" 2>"$WORK/calls.err" || fail "the MCP client failed: $(tail -5 "$WORK/calls.err")"

PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 \
    python3 - "$WORK" "${BENCH_JSON_DIR:-}" "$DAYS" <<'PY'
import json
import sys
import benchjson
work, directory, days = sys.argv[1:4]
samples = json.load(open(f"{work}/status.json"))["samples"]["total"]
calls = json.load(open(f"{work}/calls.json"))
rss = None
for line in open(f"{work}/server.time", encoding="utf-8"):
    if "Maximum resident set size" in line:
        rss = int(line.rsplit(":", 1)[1]) / 1024
print(f"\nstore: {samples:,} samples over {days} simulated days")
print(f"{'client':<12} {'call':<30} {'first ms':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'days':>6}")
figures, targets = [], []
for client, results in calls.items():
    for name, figure in results.items():
        print(f"{client:<12} {name:<30} {figure['first_ms']:>9} {figure['p50_ms']:>8} {figure['p95_ms']:>8} "
              f"{figure['max_ms']:>8} {figure['days']:>6}")
        figures.append({"name": f"mcp {name} ({client})", **figure})
        if client == "round trip":
            targets.append(benchjson.target(
                f"{name} p95", figure["p95_ms"] <= 100, figure["p95_ms"], "<= 100 ms",
                f"{name}: p95 {figure['p95_ms']} ms over {figure['calls']} calls, round trip (target <= 100 ms)"))
print(f"server peak RSS: {rss:.1f} MB")
figures.append({"name": "mcp server", "peak_rss_mb": round(rss, 1), "samples": samples})
targets.append(benchjson.target("server peak RSS", rss <= 60, round(rss, 1), "<= 60 MB",
                                f"server peak RSS {rss:.1f} MB (target <= 60 MB)"))
benchjson.print_targets(targets, [])
if directory:
    benchjson.write_document(f"{directory}/mcp.json", "mcp", f"MCP tools over a store of {samples:,} samples",
                             figures, targets, [], days=int(days), samples=samples)
PY
