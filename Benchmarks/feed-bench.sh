#!/usr/bin/env bash
# feed-bench.sh — the change feed: 100 followers of 10 users while the collector ingests, a
# follower catching up 365 changed days, and a refresh of unchanged projections.
#
# Starts the release `healthetl serve` on 127.0.0.1 (port 0) over a fresh temporary data directory
# with 11 users (10 followed, 1 for the catch-up), runs `healthetl-feed-bench` against it and stops
# the server with SIGTERM. Builds nothing: `make bench` builds both binaries.
#
# Targets: an event reaches its followers <= 500 ms p99 after commit; ingest with the followers
# subscribed >= 90 % of the rate without; `follow` catching up 365 changed days <= 2 s; a refresh of
# unchanged scopes costs only 304s. A missed target prints MISSED and exits 0, like the other
# benches; a failure (an event lost, a server error) exits non-zero.
#
# Environment:
#   BENCH_KEEP=1        keep the work directory (data, logs) and print its path
#   BENCH_JSON_DIR=DIR  also write every figure and the target verdicts to DIR/feed.json
#   HEALTHETL, FEED_BENCH  override the binaries used
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}
FEED_BENCH=${FEED_BENCH:-$ROOT/.build/release/healthetl-feed-bench}

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'feed-bench: %s\n' "$*" >&2; exit 1; }

[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
[ -x "$FEED_BENCH" ] || fail "missing $FEED_BENCH — swift build -c release --static-swift-stdlib --product healthetl-feed-bench (make bench builds it)"
if [ -n "${BENCH_JSON_DIR:-}" ]; then mkdir -p "$BENCH_JSON_DIR" || fail "cannot create $BENCH_JSON_DIR"; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-feed.XXXXXX") || fail "cannot create a work directory"
# shellcheck source=Benchmarks/collector.sh
. "$ROOT/Benchmarks/collector.sh"
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
    stop_collector
    if [ "${BENCH_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Throwaway users and tokens, in a file only we can read (the collector refuses laxer modes).
(
    umask 077
    for user in $(seq 1 11); do
        printf 'user%02d bench-%s\n' "$user" "$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
    done >"$WORK/tokens"
) || fail "cannot write the tokens file"
chmod 600 "$WORK/tokens"

start_collector
say "100 followers of 10 users, then a catch-up"

echo "feed-bench: the change feed (healthetl $("$HEALTHETL" --version 2>/dev/null | head -n 1))"
"$FEED_BENCH" "$URL" "$WORK/tokens" "$WORK/feed.json" "$WORK"
RC=$?
kill -TERM "$SERVER_PID" 2>/dev/null
wait "$SERVER_PID"
STOP_RC=$?
SERVER_PID=
errors=$(grep -c -E ' (error|critical) ' "$WORK/server.err" 2>/dev/null)
if [ "${errors:-0}" -gt 0 ]; then
    echo "  collector logged $errors error line(s):"
    grep -E ' (error|critical) ' "$WORK/server.err" | head -n 5
fi
[ "$STOP_RC" -eq 0 ] || { echo "  FAILURE: the collector exited with $STOP_RC after SIGTERM"; RC=1; }
if [ -n "${BENCH_JSON_DIR:-}" ] && [ -f "$WORK/feed.json" ]; then cp "$WORK/feed.json" "$BENCH_JSON_DIR/feed.json"; fi
exit "$RC"
