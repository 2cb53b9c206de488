/// The store's migrations, oldest first.
enum StoreSchema {
    static let migrations: [Migration] = [initial]

    /// Interned names, samples keyed by content id, tombstones, quarantine, cursors, dirty
    /// projection keys and import runs.
    static let initial = Migration(
        name: "0001_initial",
        sql: """
            CREATE TABLE metrics(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE sources(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE devices(id INTEGER PRIMARY KEY, description TEXT NOT NULL UNIQUE);
            CREATE TABLE streams(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);

            CREATE TABLE samples(
                rowid INTEGER PRIMARY KEY,
                id BLOB NOT NULL CHECK(length(id) = 16),
                metric_id INTEGER NOT NULL REFERENCES metrics(id),
                source_id INTEGER NOT NULL REFERENCES sources(id),
                source_version TEXT,
                device_id INTEGER REFERENCES devices(id),
                start_ms INTEGER NOT NULL,
                end_ms INTEGER NOT NULL CHECK(end_ms >= start_ms),
                utc_offset_s INTEGER,
                value REAL,
                category TEXT,
                value_text TEXT,
                unit_text TEXT,
                flags INTEGER NOT NULL DEFAULT 0,
                lane INTEGER NOT NULL CHECK(lane IN (0, 1, 2)),
                stream_id INTEGER NOT NULL REFERENCES streams(id),
                metadata TEXT,
                committed_ms INTEGER NOT NULL
            );
            -- Identity, de-duplication and the projections' range scans in one index. The id decides
            -- alone (it hashes metric and start), but leading with metric and time keeps inserts
            -- local: a random 16-byte key would touch a different page for nearly every row.
            CREATE UNIQUE INDEX samples_identity ON samples(metric_id, start_ms, id);

            CREATE TABLE tombstones(
                sample_id BLOB PRIMARY KEY NOT NULL CHECK(length(sample_id) = 16),
                metric_id INTEGER REFERENCES metrics(id),
                start_ms INTEGER,
                end_ms INTEGER,
                reason TEXT NOT NULL,
                deleted_ms INTEGER NOT NULL,
                stream_id INTEGER NOT NULL REFERENCES streams(id),
                committed_ms INTEGER NOT NULL
            ) WITHOUT ROWID;

            CREATE TABLE quarantine(
                id BLOB PRIMARY KEY NOT NULL CHECK(length(id) = 16),
                reason TEXT NOT NULL,
                detail TEXT NOT NULL,
                raw TEXT NOT NULL,
                stream_id INTEGER NOT NULL REFERENCES streams(id),
                committed_ms INTEGER NOT NULL
            ) WITHOUT ROWID;

            CREATE TABLE cursors(
                stream_id INTEGER NOT NULL REFERENCES streams(id),
                lane INTEGER NOT NULL CHECK(lane IN (0, 1, 2)),
                position INTEGER NOT NULL,
                updated_ms INTEGER NOT NULL,
                PRIMARY KEY(stream_id, lane)
            ) WITHOUT ROWID;

            CREATE TABLE dirty_keys(
                metric_id INTEGER NOT NULL REFERENCES metrics(id),
                day TEXT NOT NULL,
                marked_ms INTEGER NOT NULL,
                PRIMARY KEY(metric_id, day)
            ) WITHOUT ROWID;

            CREATE TABLE import_runs(
                id INTEGER PRIMARY KEY,
                source TEXT NOT NULL,
                input TEXT NOT NULL,
                started_ms INTEGER NOT NULL,
                finished_ms INTEGER,
                complete INTEGER,
                summary TEXT
            );
            """)
}
