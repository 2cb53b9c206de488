/// The collector's tables on PostgreSQL: the SQLite schema's tables and keys (every key starts
/// with the user), in PostgreSQL's types, with samples partitioned by month of their start.
/// Applied in order by `PostgresMigrator`, each once, whatever number of collectors start at once.
enum PostgresCollectorSchema {
    struct Migration: Sendable {
        let name: String
        let sql: [String]
    }

    static let migrations: [Migration] = [
        Migration(
            name: "0001_collector",
            sql: [
                "CREATE TABLE users(id bigserial PRIMARY KEY, name text NOT NULL UNIQUE)",
                "CREATE TABLE metrics(id serial PRIMARY KEY, name text NOT NULL UNIQUE)",
                // Partitions are monthly ranges of start_ms, made on demand (`PostgresPartitions`).
                """
                CREATE TABLE samples(
                    user_id bigint NOT NULL, metric_id integer NOT NULL, start_ms bigint NOT NULL, id bytea NOT NULL,
                    end_ms bigint NOT NULL, source text NOT NULL, source_version text, device text,
                    utc_offset_s integer, time_zone text, value double precision, category text,
                    user_entered boolean NOT NULL, flags integer NOT NULL, updated_ms bigint NOT NULL,
                    restores_ms bigint,
                    PRIMARY KEY(user_id, metric_id, start_ms, id)
                ) PARTITION BY RANGE (start_ms)
                """,
                """
                CREATE TABLE deletions(
                    user_id bigint NOT NULL, metric_id integer NOT NULL, start_ms bigint NOT NULL, id bytea NOT NULL,
                    deleted_ms bigint NOT NULL, source_deleted_ms bigint,
                    PRIMARY KEY(user_id, metric_id, start_ms, id)
                )
                """,
                """
                CREATE TABLE spans(
                    user_id bigint NOT NULL, metric_id integer NOT NULL, longest_ms bigint NOT NULL,
                    PRIMARY KEY(user_id, metric_id)
                )
                """,
                // A batch being applied holds a lease: a collector that dies mid-way loses it,
                // and another takes the batch over once it has run out.
                """
                CREATE TABLE batches(
                    user_id bigint NOT NULL, batch_id text NOT NULL, body_sha256 bytea NOT NULL,
                    response bytea, received_ms bigint NOT NULL, lease_until_ms bigint,
                    PRIMARY KEY(user_id, batch_id)
                )
                """,
                """
                CREATE TABLE dirty_days(
                    user_id bigint NOT NULL, metric_id integer NOT NULL, day integer NOT NULL,
                    PRIMARY KEY(user_id, metric_id, day)
                )
                """,
                """
                CREATE TABLE daily_rollups(
                    user_id bigint NOT NULL, metric_id integer NOT NULL, day integer NOT NULL,
                    sum double precision, avg double precision, min double precision, max double precision,
                    count integer NOT NULL, latest double precision, sources text NOT NULL,
                    coverage_s double precision NOT NULL, computed_ms bigint NOT NULL,
                    PRIMARY KEY(user_id, metric_id, day)
                )
                """,
                """
                CREATE TABLE sleep_nights(
                    user_id bigint NOT NULL, night integer NOT NULL, source text NOT NULL,
                    in_bed_s double precision NOT NULL, asleep_s double precision NOT NULL,
                    core_s double precision NOT NULL, deep_s double precision NOT NULL, rem_s double precision NOT NULL,
                    awake_s double precision NOT NULL, start_ms bigint NOT NULL, end_ms bigint NOT NULL,
                    computed_ms bigint NOT NULL,
                    PRIMARY KEY(user_id, night)
                )
                """,
                """
                CREATE TABLE source_priorities(
                    user_id bigint PRIMARY KEY, sources text NOT NULL, updated_ms bigint NOT NULL
                )
                """,
            ]),
        // Views for charting tools (Grafana's PostgreSQL data source): names instead of ids, days
        // as dates, times as timestamps, each metric's canonical unit.
        Migration(
            name: "0002_views",
            sql: [
                "ALTER TABLE metrics ADD COLUMN unit text",
                """
                CREATE VIEW samples_local AS
                SELECT u.name AS user_name, m.name AS metric, m.unit, s.source, s.device,
                    to_timestamp(s.start_ms / 1000.0) AS start_time, to_timestamp(s.end_ms / 1000.0) AS end_time,
                    (to_timestamp((s.start_ms / 1000.0) + coalesce(s.utc_offset_s, 0)) AT TIME ZONE 'UTC')
                        AS local_start, s.utc_offset_s, s.time_zone, s.value, s.category, s.user_entered
                FROM samples s JOIN users u ON u.id = s.user_id JOIN metrics m ON m.id = s.metric_id
                """,
                """
                CREATE VIEW daily_rollups_v AS
                SELECT u.name AS user_name, m.name AS metric, m.unit, date '1970-01-01' + r.day AS day,
                    (date '1970-01-01' + r.day)::timestamp AS time, r.sum, r.avg, r.min, r.max, r.count, r.latest,
                    r.sources, r.coverage_s, to_timestamp(r.computed_ms / 1000.0) AS computed_at
                FROM daily_rollups r JOIN users u ON u.id = r.user_id JOIN metrics m ON m.id = r.metric_id
                """,
                """
                CREATE VIEW sleep_nights_v AS
                SELECT u.name AS user_name, date '1970-01-01' + n.night AS night,
                    (date '1970-01-01' + n.night)::timestamp AS time, n.source,
                    n.in_bed_s / 3600 AS in_bed_h, n.asleep_s / 3600 AS asleep_h, n.core_s / 3600 AS core_h,
                    n.deep_s / 3600 AS deep_h, n.rem_s / 3600 AS rem_h, n.awake_s / 3600 AS awake_h,
                    to_timestamp(n.start_ms / 1000.0) AS start_time, to_timestamp(n.end_ms / 1000.0) AS end_time
                FROM sleep_nights n JOIN users u ON u.id = n.user_id
                """,
            ]),
        // The change feed (see the SQLite schema's 0004_change_feed).
        Migration(
            name: "0003_change_feed",
            sql: [
                """
                CREATE TABLE feed_heads(
                    user_id bigint PRIMARY KEY, seq bigint NOT NULL, pruned_through bigint NOT NULL DEFAULT 0,
                    reset_seq bigint NOT NULL DEFAULT 0
                )
                """,
                """
                CREATE TABLE changes(
                    user_id bigint NOT NULL, seq bigint NOT NULL, keys text NOT NULL, committed_ms bigint NOT NULL,
                    PRIMARY KEY(user_id, seq)
                )
                """,
                "CREATE INDEX changes_by_time ON changes(committed_ms)",
                """
                CREATE TABLE key_versions(
                    user_id bigint NOT NULL, metric_id integer NOT NULL, month integer NOT NULL, seq bigint NOT NULL,
                    PRIMARY KEY(user_id, metric_id, month)
                )
                """,
            ]),
    ]
}
