# shellcheck shell=bash
# A throwaway PostgreSQL cluster for scripts (demo, benchmarks, the API fuzz run), sourced:
#   throwaway_postgres_start DIR   initdb into DIR/data, a server on a free 127.0.0.1 port and a
#                                  socket in DIR (fsync off); as the `postgres` user when root,
#                                  since PostgreSQL refuses to run as root
#   throwaway_postgres_database NAME   creates a database, prints its URL
#   throwaway_postgres_sql DATABASE SQL   runs SQL with psql, rows on standard output
#   throwaway_postgres_stop        stops the server (the caller removes DIR)
# DIR must be reachable by the `postgres` user (not inside a 0700 directory of another user).

throwaway_postgres_as_server() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

throwaway_postgres_start() {
    PG_DIR=$1
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ ! -x "$PG_BIN/initdb" ]; then
        echo "PostgreSQL's server is not installed: run make deps" >&2
        return 1
    fi
    mkdir -p "$PG_DIR"
    chmod 755 "$PG_DIR"
    [ "$(id -u)" -eq 0 ] && chown postgres "$PG_DIR"
    PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    throwaway_postgres_as_server "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U healthetl --no-sync -E UTF8 \
        >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; return 1; }
    throwaway_postgres_as_server "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
        -o "-k $PG_DIR -p $PG_PORT -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start \
        >/dev/null || { cat "$PG_DIR/server.log" >&2; return 1; }
}

throwaway_postgres_database() {
    throwaway_postgres_as_server "$PG_BIN/createdb" -h "$PG_DIR" -p "$PG_PORT" -U healthetl "$1" &&
        echo "postgres://healthetl@127.0.0.1:$PG_PORT/$1?sslmode=disable"
}

throwaway_postgres_sql() {
    throwaway_postgres_as_server "$PG_BIN/psql" -h "$PG_DIR" -p "$PG_PORT" -U healthetl -At -d "$1" -c "$2"
}

throwaway_postgres_stop() {
    [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ] &&
        throwaway_postgres_as_server "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
    return 0
}
