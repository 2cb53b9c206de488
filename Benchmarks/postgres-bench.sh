#!/usr/bin/env bash
# postgres-bench.sh — the collector on PostgreSQL beside the embedded SQLite, in one run:
#   ingest   500,000 samples through HTTP (healthetl-ingest-bench: zstd batches of 5,000, 4 in
#            flight per client) into one collector on SQLite, one on PostgreSQL, and two
#            collectors on one PostgreSQL database (two clients, half the samples each, at once);
#            samples/s against >= 100,000 with one collector on PostgreSQL and >= 1.5x that with two.
#   refresh  a year of one person (healthetl simulate --days 365, uploaded), every projection day
#            marked dirty, then every metric's daily rollups and the sleep nights of the year read
#            (which recomputes them): seconds against < 2 s, on both storages.
# The PostgreSQL cluster is a throwaway one (initdb into a temporary directory, a free loopback
# port, fsync off as in the tests; as the `postgres` user when run as root), removed at the end.
#
# Builds nothing: it expects .build/release/healthetl and healthetl-ingest-bench. Exits non-zero
# only when a tool fails; a missed target prints MISSED.
#
# Environment:
#   BENCH_PG_SAMPLES   samples per ingest run (default 500000)
#   BENCH_KEEP=1       keep the work directory
#   BENCH_JSON_DIR=DIR also write every figure and target verdict to DIR/postgres.json
#   HEALTHETL, INGEST_BENCH  override the binaries used
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}
INGEST_BENCH=${INGEST_BENCH:-$ROOT/.build/release/healthetl-ingest-bench}
SAMPLES=${BENCH_PG_SAMPLES:-500000}

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'postgres-bench: %s\n' "$*" >&2; exit 1; }

[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
[ -x "$INGEST_BENCH" ] || fail "missing $INGEST_BENCH"
if [ -n "${BENCH_JSON_DIR:-}" ]; then mkdir -p "$BENCH_JSON_DIR" || fail "cannot create $BENCH_JSON_DIR"; fi
# shellcheck source=scripts/throwaway-postgres.sh
source "$ROOT/scripts/throwaway-postgres.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-pg-bench.XXXXXX") || fail "cannot create a work directory"
chmod 755 "$WORK"
SERVERS=()
cleanup() {
    for pid in "${SERVERS[@]}"; do kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    throwaway_postgres_stop
    if [ "${BENCH_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
throwaway_postgres_start "$WORK/cluster" || fail "the PostgreSQL cluster did not start"
psql_at() { throwaway_postgres_sql "$@"; }

TOKEN="bench-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
(umask 077 && printf 'bench %s\n' "$TOKEN" >"$WORK/tokens" && printf '%s' "$TOKEN" >"$WORK/token")

# serve NAME [--database URL]: starts a collector and sets URL to its address (not in a
# subshell: the collector's pid must reach SERVERS, to be stopped)
serve() {
    local name=$1
    shift
    "$HEALTHETL" serve --port 0 --data "$WORK/$name" --tokens "$WORK/tokens" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
    SERVERS+=($!)
    URL=
    for _ in $(seq 1 300); do
        URL=$(sed -n 's/^healthetl collector listening on \(http:\/\/[^ ]*\).*/\1/p' "$WORK/$name.out" | head -n 1)
        [ -n "$URL" ] && break
        sleep 0.1
    done
    [ -n "$URL" ] || { tail -n 5 "$WORK/$name.err" >&2; fail "collector $name did not start"; }
}
stop_servers() {
    for pid in "${SERVERS[@]}"; do kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    SERVERS=()
}
database() { throwaway_postgres_database "$1"; }

# ingest NAME URL…: one client per URL at once, the samples split between them; prints samples/s
ingest() {
    local name=$1
    shift
    local count=$# index=0 pids=()
    for url in "$@"; do
        "$INGEST_BENCH" --url "$url" --token "$TOKEN" --samples $((SAMPLES / count)) --seed $((index + 1)) \
            --run-id "$name-$index" --target 0 --report-json "$WORK/$name-$index.json" >"$WORK/$name-$index.log" 2>&1 &
        pids+=($!)
        index=$((index + 1))
    done
    for pid in "${pids[@]}"; do wait "$pid" || fail "an ingest client failed (see $WORK/$name-*.log)"; done
    python3 - "$WORK" "$name" "$count" <<'PY'
import json, sys
work, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
reports = [json.load(open(f"{work}/{name}-{i}.json")) for i in range(count)]
stored = sum(r["samplesStored"] for r in reports)
wall = max(r["wallSeconds"] for r in reports)
print(f"{stored / wall:.0f} {stored} {wall:.2f}")
PY
}

say "ingest: one collector on SQLite"
serve sqlite-1
read -r SQLITE_RATE SQLITE_STORED SQLITE_WALL <<<"$(ingest sqlite-1 "$URL")"
stop_servers
say "ingest: one collector on PostgreSQL"
DB=$(database ingest1) || fail "createdb failed"
serve pg-1 --database "$DB"
read -r PG1_RATE PG1_STORED PG1_WALL <<<"$(ingest pg-1 "$URL")"
stop_servers
say "ingest: two collectors on one PostgreSQL database"
DB=$(database ingest2) || fail "createdb failed"
serve pg-2a --database "$DB"
URL_A=$URL
serve pg-2b --database "$DB"
URL_B=$URL
read -r PG2_RATE PG2_STORED PG2_WALL <<<"$(ingest pg-2 "$URL_A" "$URL_B")"
PG2_ROWS=$(psql_at ingest2 "SELECT count(*) FROM samples")
stop_servers

say "refresh: a year of one person"
"$HEALTHETL" --store "$WORK/year" simulate --days 365 --seed 7 --json >/dev/null || fail "simulate failed"
# One copy of the store per collector: an uploaded store has nothing left to send.
cp -a "$WORK/year" "$WORK/year-pg-year" && mv "$WORK/year" "$WORK/year-sqlite-year"
# refresh NAME URL MARK-DIRTY-COMMAND…: uploads the year, marks every day dirty, times the reads
refresh_year() {
    local name=$1 url=$2
    shift 2
    "$HEALTHETL" --store "$WORK/year-$name" upload --endpoint "$url" --token-file "$WORK/token" --json >"$WORK/$name-upload.json" ||
        fail "the upload to $name failed"
    "$@" >/dev/null || fail "marking the year dirty failed"
    python3 - "$url" "$TOKEN" <<'PY'
import datetime, http.client, json, sys, time, urllib.parse
url, token = urllib.parse.urlparse(sys.argv[1]), sys.argv[2]
# The year simulate wrote, ending today (the API answers at most a year at a time).
last = datetime.date.today()
first = last - datetime.timedelta(days=365)
connection = http.client.HTTPConnection(url.hostname, url.port)
headers = {"Authorization": "Bearer " + token}
metrics = ["step_count", "heart_rate", "active_energy_burned", "basal_energy_burned", "distance_walking_running",
           "heart_rate_variability_sdnn", "resting_heart_rate", "oxygen_saturation", "body_mass",
           "blood_pressure_systolic", "sleep_analysis", "apple_exercise_time"]
started = time.monotonic()
days = 0
for metric in metrics:
    connection.request("GET", f"/v1/projections/daily?metric={metric}&from={first}&to={last}", headers=headers)
    answer = json.loads(connection.getresponse().read())
    days += len(answer.get("days", []))
connection.request("GET", f"/v1/projections/sleep?from={first}&to={last}", headers=headers)
nights = len(json.loads(connection.getresponse().read()).get("nights", []))
print(f"{time.monotonic() - started:.2f} {days} {nights}")
PY
}
serve sqlite-year
read -r SQLITE_REFRESH SQLITE_DAYS SQLITE_NIGHTS <<<"$(refresh_year sqlite-year "$URL" python3 -c "
import sqlite3; c = sqlite3.connect('$WORK/sqlite-year/healthetl.sqlite')
c.execute('INSERT INTO dirty_days(user_id, metric_id, day) SELECT user_id, metric_id, day FROM daily_rollups WHERE true ON CONFLICT DO NOTHING'); c.commit()")"
stop_servers
DB=$(database year) || fail "createdb failed"
serve pg-year --database "$DB"
read -r PG_REFRESH PG_DAYS PG_NIGHTS <<<"$(refresh_year pg-year "$URL" psql_at year \
    "INSERT INTO dirty_days(user_id, metric_id, day) SELECT user_id, metric_id, day FROM daily_rollups ON CONFLICT DO NOTHING")"
stop_servers

printf '\n%-44s %12s %10s %8s\n' "ingest ($SAMPLES samples)" "samples/s" "stored" "wall s"
printf '%-44s %12s %10s %8s\n' "SQLite, one collector" "$SQLITE_RATE" "$SQLITE_STORED" "$SQLITE_WALL"
printf '%-44s %12s %10s %8s\n' "PostgreSQL, one collector" "$PG1_RATE" "$PG1_STORED" "$PG1_WALL"
printf '%-44s %12s %10s %8s\n' "PostgreSQL, two collectors, one database" "$PG2_RATE" "$PG2_STORED" "$PG2_WALL"
echo "rows in the two-collector database: $PG2_ROWS"
python3 - "$PG1_RATE" "$PG2_RATE" <<'PY'
import sys
one, two = float(sys.argv[1]), float(sys.argv[2])
print(f"target >= 100,000 samples/s with one collector on PostgreSQL: {'met' if one >= 100_000 else 'MISSED'} ({one:,.0f})")
print(f"target two collectors >= 1.5x one: {'met' if two >= 1.5 * one else 'MISSED'} ({two / one:.2f}x)")
PY
printf '\n%-44s %10s %8s %8s\n' "refresh of a year of one person" "seconds" "days" "nights"
printf '%-44s %10s %8s %8s\n' "SQLite" "$SQLITE_REFRESH" "$SQLITE_DAYS" "$SQLITE_NIGHTS"
printf '%-44s %10s %8s %8s\n' "PostgreSQL" "$PG_REFRESH" "$PG_DAYS" "$PG_NIGHTS"
python3 -c "import sys; t=float('$PG_REFRESH'); print(f\"target < 2 s on PostgreSQL: {'met' if t < 2 else 'MISSED'} ({t:.2f} s)\")"

if [ -n "${BENCH_JSON_DIR:-}" ]; then
    # The JSON document: Benchmarks/benchjson.py.
    PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 \
        python3 - "$BENCH_JSON_DIR/postgres.json" "$SAMPLES" "$SQLITE_RATE" "$SQLITE_STORED" "$SQLITE_WALL" \
        "$PG1_RATE" "$PG1_STORED" "$PG1_WALL" "$PG2_RATE" "$PG2_STORED" "$PG2_WALL" "$PG2_ROWS" \
        "$SQLITE_REFRESH" "$SQLITE_DAYS" "$SQLITE_NIGHTS" "$PG_REFRESH" "$PG_DAYS" "$PG_NIGHTS" <<'PY'
import sys
import benchjson
path, samples = sys.argv[1], int(sys.argv[2])
def number(text):
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        return None
v = [number(a) for a in sys.argv[3:]]
ingest = [("ingest: SQLite, one collector", v[0:3]), ("ingest: PostgreSQL, one collector", v[3:6]),
          ("ingest: PostgreSQL, two collectors, one database", v[6:9])]
figures = [{"name": name, "samples_per_s": rate, "stored": stored, "wall_s": wall} for name, (rate, stored, wall) in ingest]
figures[2]["rows_in_database"] = v[9]
figures += [{"name": "refresh a year: SQLite", "wall_s": v[10], "days": v[11], "nights": v[12]},
            {"name": "refresh a year: PostgreSQL", "wall_s": v[13], "days": v[14], "nights": v[15]}]
one, two, refresh = v[3] or 0, v[6] or 0, v[13]
targets = [
    benchjson.target("PostgreSQL ingest", one >= 100_000, one, ">= 100,000 samples/s",
                     f"one collector on PostgreSQL {one:,.0f} samples/s (target >= 100,000)"),
    benchjson.target("two collectors", bool(one) and two >= 1.5 * one, round(two / one, 2) if one else None,
                     ">= 1.5x one", f"two collectors {two / one if one else 0:.2f}x one (target >= 1.5x)"),
    benchjson.target("PostgreSQL refresh", refresh is not None and refresh < 2, refresh, "< 2 s",
                     f"refresh of a year on PostgreSQL {refresh} s (target < 2 s)"),
]
benchjson.write_document(path, "postgres",
                         f"The collector on PostgreSQL beside SQLite ({samples:,} samples per ingest run)",
                         figures, targets, [], samples=samples)
PY
fi
