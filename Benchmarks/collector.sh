# collector.sh — sourced by the benches that run `healthetl serve` (ingest-bench.sh, feed-bench.sh):
# start it on a free loopback port over $WORK/data and $WORK/tokens, learn its URL, stop it.
# Needs HEALTHETL, WORK and the script's say and fail; sets SERVER_PID and URL.
# shellcheck shell=bash disable=SC2120 # serve's extra arguments are optional

SERVER_PID=
URL=

# Starts the collector (extra arguments go to `serve`) and waits for its address, at most 30 s.
start_collector() {
    "$HEALTHETL" serve --host 127.0.0.1 --port 0 --data "$WORK/data" --tokens "$WORK/tokens" "$@" \
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
}

# Stops a collector still running (the scripts' EXIT trap calls it).
stop_collector() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null
        wait "$SERVER_PID" 2>/dev/null
    fi
    SERVER_PID=
}
