#!/usr/bin/env bash
# The second half of `make demo`: start a throwaway collector on 127.0.0.1, upload the demo
# store to it, refresh the projections and print the sample export's last week of daily rollups.
set -euo pipefail

BIN=${1:?usage: demo-upload.sh BIN STORE}
STORE=${2:?usage: demo-upload.sh BIN STORE}
COLLECTOR="$STORE/collector"
mkdir -p "$COLLECTOR"
chmod 700 "$STORE" "$COLLECTOR"
TOKEN="demo-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
(umask 077 && printf 'demo %s\n' "$TOKEN" >"$COLLECTOR/tokens" && printf '%s\n' "$TOKEN" >"$STORE/token")

# DEMO_DATABASE (set by demo-postgres.sh) keeps the collector's data in PostgreSQL instead.
"$BIN" serve --port 0 --data "$COLLECTOR" --tokens "$COLLECTOR/tokens" ${DEMO_DATABASE:+--database "$DEMO_DATABASE"} \
    >"$COLLECTOR/serve.out" 2>"$COLLECTOR/serve.log" &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null; wait $SERVER 2>/dev/null || true' EXIT
URL=
for _ in $(seq 1 100); do
    URL=$(sed -n 's/^healthetl collector listening on \(http:\/\/[^ ]*\).*/\1/p' "$COLLECTOR/serve.out")
    [ -n "$URL" ] && break
    sleep 0.1
done
[ -n "$URL" ] || { cat "$COLLECTOR/serve.log" >&2; echo "the demo collector did not start" >&2; exit 1; }
echo "Collector: $URL (data in $COLLECTOR)"
echo
"$BIN" --store "$STORE" upload --endpoint "$URL" --token-file "$STORE/token" --save-config
echo
for metric in step_count active_energy_burned heart_rate; do
    "$BIN" --store "$STORE" projections --metric "$metric" --from 2024-11-25 --to 2024-12-01
    echo
done
"$BIN" --store "$STORE" projections --metric sleep_analysis --from 2024-11-25 --to 2024-12-01 | sed -n '/^NIGHT/,$p'
