import HealthETLSQLite

/// The collector's tables. Every table's key starts with the user, so every query is scoped by
/// its first key column.
enum CollectorSchema {
    static let migrations: [Migration] = [
        Migration(
            name: "0001_collector",
            sql: """
                CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE metrics(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE samples(
                    user_id INTEGER NOT NULL, metric_id INTEGER NOT NULL, start_ms INTEGER NOT NULL, id BLOB NOT NULL,
                    end_ms INTEGER NOT NULL, source TEXT NOT NULL, source_version TEXT, device TEXT,
                    utc_offset_s INTEGER, time_zone TEXT, value REAL, category TEXT,
                    user_entered INTEGER NOT NULL, flags INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
                    PRIMARY KEY(user_id, metric_id, start_ms, id)
                ) WITHOUT ROWID;
                CREATE TABLE deletions(
                    user_id INTEGER NOT NULL, metric_id INTEGER NOT NULL, start_ms INTEGER NOT NULL, id BLOB NOT NULL,
                    deleted_ms INTEGER NOT NULL,
                    PRIMARY KEY(user_id, metric_id, start_ms, id)
                ) WITHOUT ROWID;
                -- The longest sample seen per user and metric: how far before a day to look for
                -- samples that reach into it.
                CREATE TABLE spans(
                    user_id INTEGER NOT NULL, metric_id INTEGER NOT NULL, longest_ms INTEGER NOT NULL,
                    PRIMARY KEY(user_id, metric_id)
                ) WITHOUT ROWID;
                CREATE TABLE batches(
                    user_id INTEGER NOT NULL, batch_id TEXT NOT NULL, body_sha256 BLOB NOT NULL,
                    response BLOB NOT NULL, received_ms INTEGER NOT NULL,
                    PRIMARY KEY(user_id, batch_id)
                ) WITHOUT ROWID;
                -- Projection keys to recompute: a metric's local day (days since 1970-01-01).
                CREATE TABLE dirty_days(
                    user_id INTEGER NOT NULL, metric_id INTEGER NOT NULL, day INTEGER NOT NULL,
                    PRIMARY KEY(user_id, metric_id, day)
                ) WITHOUT ROWID;
                CREATE TABLE daily_rollups(
                    user_id INTEGER NOT NULL, metric_id INTEGER NOT NULL, day INTEGER NOT NULL,
                    sum REAL, avg REAL, min REAL, max REAL, count INTEGER NOT NULL, latest REAL,
                    sources TEXT NOT NULL, coverage_s REAL NOT NULL, computed_ms INTEGER NOT NULL,
                    PRIMARY KEY(user_id, metric_id, day)
                ) WITHOUT ROWID;
                CREATE TABLE sleep_nights(
                    user_id INTEGER NOT NULL, night INTEGER NOT NULL, source TEXT NOT NULL,
                    in_bed_s REAL NOT NULL, asleep_s REAL NOT NULL, core_s REAL NOT NULL, deep_s REAL NOT NULL,
                    rem_s REAL NOT NULL, awake_s REAL NOT NULL, start_ms INTEGER NOT NULL, end_ms INTEGER NOT NULL,
                    computed_ms INTEGER NOT NULL,
                    PRIMARY KEY(user_id, night)
                ) WITHOUT ROWID;
                """),
        // Per user: the source names, best first, that outrank the default order in that
        // user's projections (`PUT /v1/settings/source-priority`), as a JSON array.
        Migration(
            name: "0002_source_priority",
            sql: """
                CREATE TABLE source_priorities(
                    user_id INTEGER PRIMARY KEY NOT NULL, sources TEXT NOT NULL, updated_ms INTEGER NOT NULL
                );
                """),
        // When the source deleted a sample (NULL: a client that did not say), and, for a sample
        // that came back after a deletion, when that deletion happened: a deletion and the
        // sample's return are then applied in the order they happened, whichever arrives first.
        Migration(
            name: "0003_deletion_order",
            sql: """
                ALTER TABLE deletions ADD COLUMN source_deleted_ms INTEGER;
                ALTER TABLE samples ADD COLUMN restores_ms INTEGER;
                """),
        // The change feed: per user a sequence every committed write advances, the keys each
        // change touched (kept for the retention window), and per metric and month (since 1970)
        // the sequence that last changed it, which the projections' ETags are made from.
        Migration(
            name: "0004_change_feed",
            sql: """
                CREATE TABLE feed_heads(
                    user_id INTEGER PRIMARY KEY NOT NULL, seq INTEGER NOT NULL,
                    pruned_through INTEGER NOT NULL DEFAULT 0, reset_seq INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO feed_heads(user_id, seq) SELECT id, 0 FROM users;
                CREATE TABLE changes(
                    user_id INTEGER NOT NULL, seq INTEGER NOT NULL, keys TEXT NOT NULL, committed_ms INTEGER NOT NULL,
                    PRIMARY KEY(user_id, seq)
                ) WITHOUT ROWID;
                CREATE INDEX changes_by_time ON changes(committed_ms);
                CREATE TABLE key_versions(
                    user_id INTEGER NOT NULL, metric_id INTEGER NOT NULL, month INTEGER NOT NULL, seq INTEGER NOT NULL,
                    PRIMARY KEY(user_id, metric_id, month)
                ) WITHOUT ROWID;
                """),
        // A sample's source, version, device and time zone become ids into `texts` (each text
        // once, compared byte for byte): a row is about 80 bytes instead of 200. The samples
        // are copied into a table of the new shape, which then takes the old one's name.
        Migration(
            name: "0005_sample_texts",
            sql: """
                CREATE TABLE texts(id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
                INSERT INTO texts(text)
                    SELECT source FROM samples
                    UNION SELECT source_version FROM samples WHERE source_version IS NOT NULL
                    UNION SELECT device FROM samples WHERE device IS NOT NULL
                    UNION SELECT time_zone FROM samples WHERE time_zone IS NOT NULL;
                CREATE TABLE samples_by_text_id(
                    user_id INTEGER NOT NULL, metric_id INTEGER NOT NULL, start_ms INTEGER NOT NULL, id BLOB NOT NULL,
                    end_ms INTEGER NOT NULL, source_id INTEGER NOT NULL, version_id INTEGER, device_id INTEGER,
                    utc_offset_s INTEGER, zone_id INTEGER, value REAL, category TEXT,
                    user_entered INTEGER NOT NULL, flags INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
                    restores_ms INTEGER,
                    PRIMARY KEY(user_id, metric_id, start_ms, id)
                ) WITHOUT ROWID;
                INSERT INTO samples_by_text_id
                SELECT s.user_id, s.metric_id, s.start_ms, s.id, s.end_ms,
                    (SELECT t.id FROM texts t WHERE t.text = s.source),
                    (SELECT t.id FROM texts t WHERE t.text = s.source_version),
                    (SELECT t.id FROM texts t WHERE t.text = s.device),
                    s.utc_offset_s,
                    (SELECT t.id FROM texts t WHERE t.text = s.time_zone),
                    s.value, s.category, s.user_entered, s.flags, s.updated_ms, s.restores_ms
                FROM samples s;
                DROP TABLE samples;
                ALTER TABLE samples_by_text_id RENAME TO samples;
                """),
    ]
}
