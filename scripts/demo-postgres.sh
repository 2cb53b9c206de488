#!/usr/bin/env bash
# The second half of `make demo-postgres`: a throwaway PostgreSQL cluster in a temporary
# directory, the demo collector on it, the upload and the rollups as in `make demo`; then the
# cluster is stopped and removed.
set -euo pipefail

BIN=${1:?usage: demo-postgres.sh BIN STORE}
STORE=${2:?usage: demo-postgres.sh BIN STORE}
# shellcheck source=scripts/throwaway-postgres.sh
source "$(dirname "$0")/throwaway-postgres.sh"
# Not inside the store: that is private to this user, and the server may run as `postgres`.
CLUSTER=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-demo-pg.XXXXXX")
trap 'throwaway_postgres_stop; rm -rf "$CLUSTER"' EXIT
throwaway_postgres_start "$CLUSTER"
URL=$(throwaway_postgres_database healthetl)
echo "PostgreSQL: a throwaway cluster on 127.0.0.1:$PG_PORT (removed at the end)"
DEMO_DATABASE="$URL" "$(dirname "$0")/demo-upload.sh" "$BIN" "$STORE"
echo "Rows in the collector's database:"
throwaway_postgres_sql healthetl "SELECT 'samples', count(*) FROM samples UNION ALL SELECT 'daily_rollups', count(*) FROM daily_rollups UNION ALL SELECT 'partitions', count(*) FROM pg_inherits WHERE inhparent = 'samples'::regclass"
