import HealthETLSQLite

/// The store's migrations, oldest first.
enum StoreSchema {
    static let migrations: [Migration] = [
        initial, exportEntities, cheapLaneChecks, streamSettings, uploadQueue, projections, resumableSnapshots,
        sinkSettings, sampleCommitSequence, sampleRestorations, commitSequenceAsRowID, sourcePriorities, changeFeed,
        seriesBySampleRow,
    ]

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

    /// What exports hold besides samples, and snapshot tracking for supersession.
    static let exportEntities = Migration(
        name: "0002_export_entities",
        sql: """
            -- The date of the latest full snapshot (export) that contained the sample. A date, not
            -- a run: importing the same export again then changes nothing.
            ALTER TABLE samples ADD COLUMN snapshot_ms INTEGER;

            -- Points a sample carries (HRV SDNN beats), as a JSON array of [ms, value] pairs.
            CREATE TABLE sample_series(
                sample_id BLOB PRIMARY KEY NOT NULL CHECK(length(sample_id) = 16),
                points TEXT NOT NULL
            ) WITHOUT ROWID;

            CREATE TABLE workouts(
                id BLOB PRIMARY KEY NOT NULL CHECK(length(id) = 16),
                activity_type TEXT NOT NULL,
                source_id INTEGER NOT NULL REFERENCES sources(id),
                source_version TEXT,
                device_id INTEGER REFERENCES devices(id),
                start_ms INTEGER NOT NULL,
                end_ms INTEGER NOT NULL,
                utc_offset_s INTEGER,
                duration_s REAL,
                totals TEXT,
                metadata TEXT,
                route_files TEXT,
                lane INTEGER NOT NULL CHECK(lane IN (0, 1, 2)),
                stream_id INTEGER NOT NULL REFERENCES streams(id),
                committed_ms INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX workouts_by_start ON workouts(start_ms);

            -- Parts of multi-part workouts; part 0 is the workout as a whole.
            CREATE TABLE workout_activities(
                workout_id BLOB NOT NULL REFERENCES workouts(id),
                part INTEGER NOT NULL,
                activity_type TEXT,
                start_ms INTEGER NOT NULL,
                end_ms INTEGER NOT NULL,
                duration_s REAL,
                metadata TEXT,
                PRIMARY KEY(workout_id, part)
            ) WITHOUT ROWID;

            CREATE TABLE workout_events(
                workout_id BLOB NOT NULL REFERENCES workouts(id),
                part INTEGER NOT NULL,
                seq INTEGER NOT NULL,
                type TEXT NOT NULL,
                date_ms INTEGER NOT NULL,
                duration_s REAL,
                metadata TEXT,
                PRIMARY KEY(workout_id, part, seq)
            ) WITHOUT ROWID;

            CREATE TABLE workout_statistics(
                workout_id BLOB NOT NULL REFERENCES workouts(id),
                part INTEGER NOT NULL,
                seq INTEGER NOT NULL,
                type TEXT NOT NULL,
                start_ms INTEGER,
                end_ms INTEGER,
                sum REAL,
                average REAL,
                minimum REAL,
                maximum REAL,
                unit TEXT,
                PRIMARY KEY(workout_id, part, seq)
            ) WITHOUT ROWID;

            CREATE TABLE workout_route_points(
                workout_id BLOB NOT NULL REFERENCES workouts(id),
                seq INTEGER NOT NULL,
                time_ms INTEGER,
                latitude REAL NOT NULL,
                longitude REAL NOT NULL,
                elevation_m REAL,
                speed_mps REAL,
                horizontal_accuracy_m REAL,
                PRIMARY KEY(workout_id, seq)
            ) WITHOUT ROWID;

            -- One row per local day; a newer export's figures replace an older one's.
            CREATE TABLE activity_summaries(
                day TEXT PRIMARY KEY NOT NULL,
                attributes TEXT NOT NULL,
                stream_id INTEGER NOT NULL REFERENCES streams(id),
                committed_ms INTEGER NOT NULL
            ) WITHOUT ROWID;

            -- Characteristics, clinical record references, audiograms, vision prescriptions,
            -- ECG recordings and unknown elements, kept whole as JSON.
            CREATE TABLE export_documents(
                id BLOB PRIMARY KEY NOT NULL CHECK(length(id) = 16),
                kind TEXT NOT NULL,
                start_ms INTEGER,
                end_ms INTEGER,
                source_id INTEGER REFERENCES sources(id),
                body TEXT NOT NULL,
                stream_id INTEGER NOT NULL REFERENCES streams(id),
                committed_ms INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX export_documents_by_kind ON export_documents(kind, start_ms);

            ALTER TABLE import_runs ADD COLUMN stream TEXT;
            ALTER TABLE import_runs ADD COLUMN snapshot_taken_ms INTEGER;
            """)

    /// `CHECK(lane IN (0, 1, 2))` made SQLite build a temporary table for every row it inserted
    /// (a seventh of an import's CPU); the same rule as comparisons costs nothing. Every stored
    /// row satisfies both, so only the schema text changes, rewritten in place: SQLite's
    /// documented procedure for constraint changes that leave the stored content valid, with
    /// the schema version bumped so every connection reloads it.
    static let cheapLaneChecks = Migration(name: "0003_cheap_lane_checks") { connection in
        let version = try connection.scalar("PRAGMA schema_version") ?? 0
        try connection.execute(
            """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master
            SET sql = replace(sql, 'CHECK(lane IN (0, 1, 2))', 'CHECK(lane = 0 OR lane = 1 OR lane = 2)')
            WHERE type = 'table' AND name IN ('samples', 'cursors', 'workouts');
            PRAGMA schema_version = \(version + 1);
            PRAGMA writable_schema = OFF;
            """)
    }

    /// What a live stream was created with (a synthetic stream's seed, origin and history),
    /// as the source's own JSON, so a restarted run continues the same stream.
    static let streamSettings = Migration(
        name: "0004_stream_settings",
        sql: "ALTER TABLE streams ADD COLUMN settings TEXT;")

    /// The one retry queue of every upload tier; the upload watermarks of the batch tier; a
    /// sequence over tombstones (their table has no insertion order of its own); and the items a
    /// sink refused.
    static let uploadQueue = Migration(
        name: "0005_upload_queue",
        sql: """
            CREATE TABLE upload_queue(
                batch_id TEXT PRIMARY KEY NOT NULL,
                tier INTEGER NOT NULL CHECK(tier = 1 OR tier = 2 OR tier = 3),
                state INTEGER NOT NULL CHECK(state >= 0 AND state <= 4),
                samples INTEGER NOT NULL,
                deletions INTEGER NOT NULL,
                -- The encoded body, sent byte for byte on every attempt; dropped once done.
                payload BLOB,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_ms INTEGER NOT NULL,
                lease_owner INTEGER,
                lease_until_ms INTEGER,
                last_error TEXT,
                accepted INTEGER,
                created_ms INTEGER NOT NULL,
                updated_ms INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX upload_queue_by_state ON upload_queue(state, tier, next_attempt_ms);

            CREATE TABLE upload_rejections(
                batch_id TEXT NOT NULL,
                item_id BLOB NOT NULL,
                reason TEXT NOT NULL,
                PRIMARY KEY(batch_id, item_id)
            ) WITHOUT ROWID;

            CREATE TABLE upload_marks(
                name TEXT PRIMARY KEY NOT NULL,
                position INTEGER NOT NULL
            ) WITHOUT ROWID;

            CREATE TABLE tombstone_log(
                seq INTEGER PRIMARY KEY,
                sample_id BLOB NOT NULL
            );
            INSERT INTO tombstone_log(sample_id) SELECT sample_id FROM tombstones ORDER BY committed_ms, sample_id;
            CREATE TRIGGER tombstones_logged AFTER INSERT ON tombstones
            BEGIN
                INSERT INTO tombstone_log(sample_id) VALUES (new.sample_id);
            END;

            CREATE TABLE upload_runs(
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                started_ms INTEGER NOT NULL,
                finished_ms INTEGER,
                summary TEXT
            );
            """)

    /// The local projection tables: daily rollups and sleep nights, as fetched from the collector
    /// (`origin` collector) or computed here (`origin` local).
    static let projections = Migration(
        name: "0006_projections",
        sql: """
            CREATE TABLE projection_days(
                metric_id INTEGER NOT NULL REFERENCES metrics(id),
                day TEXT NOT NULL,
                sum REAL, avg REAL, min REAL, max REAL,
                count INTEGER NOT NULL,
                latest REAL,
                sources TEXT NOT NULL,
                coverage_s REAL NOT NULL,
                computed_at TEXT NOT NULL,
                origin TEXT NOT NULL,
                refreshed_ms INTEGER NOT NULL,
                PRIMARY KEY(metric_id, day)
            ) WITHOUT ROWID;
            CREATE TABLE projection_nights(
                night TEXT PRIMARY KEY NOT NULL,
                source TEXT NOT NULL,
                in_bed_s REAL NOT NULL, asleep_s REAL NOT NULL, core_s REAL NOT NULL, deep_s REAL NOT NULL,
                rem_s REAL NOT NULL, awake_s REAL NOT NULL,
                start TEXT NOT NULL, end TEXT NOT NULL,
                computed_at TEXT NOT NULL,
                origin TEXT NOT NULL,
                refreshed_ms INTEGER NOT NULL
            ) WITHOUT ROWID;
            """)

    /// What a snapshot covers per source and metric, kept as its batches commit so a resumed
    /// import supersedes an older export exactly as an uninterrupted one would; and the samples
    /// tier 1 has queued, which the batch tier then leaves out.
    static let resumableSnapshots = Migration(
        name: "0007_snapshot_coverage_and_real_time",
        sql: """
            CREATE TABLE snapshot_coverage(
                stream_id INTEGER NOT NULL REFERENCES streams(id),
                metric_id INTEGER NOT NULL REFERENCES metrics(id),
                source_id INTEGER NOT NULL REFERENCES sources(id),
                earliest_ms INTEGER NOT NULL,
                latest_ms INTEGER NOT NULL,
                PRIMARY KEY(stream_id, metric_id, source_id)
            ) WITHOUT ROWID;
            CREATE TABLE real_time_queued(sample_id BLOB PRIMARY KEY NOT NULL) WITHOUT ROWID;
            """)

    /// What a sink was last told of the store's own settings (the source priority, as a JSON
    /// array), so a run sends a setting only when it changed, and again after a failed send.
    static let sinkSettings = Migration(
        name: "0008_sink_settings",
        sql: """
            CREATE TABLE sink_settings(
                sink TEXT NOT NULL,
                name TEXT NOT NULL,
                value TEXT NOT NULL,
                sent_ms INTEGER NOT NULL,
                PRIMARY KEY(sink, name)
            ) WITHOUT ROWID;
            """)

    /// Upload marks were row ids, and SQLite gives a new row an id below the mark once the
    /// newest rows are deleted (no AUTOINCREMENT): such samples were never sent. Every sample now
    /// takes the next number of a counter that only grows, as it commits. Existing rows keep
    /// their row id as their number, so stored marks mean what they meant; the counter starts
    /// above every row and every mark.
    static let sampleCommitSequence = Migration(
        name: "0009_sample_commit_sequence",
        sql: """
            ALTER TABLE samples ADD COLUMN commit_seq INTEGER;
            UPDATE samples SET commit_seq = rowid;
            CREATE INDEX samples_by_commit ON samples(commit_seq);
            CREATE TABLE sequences(name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) WITHOUT ROWID;
            INSERT INTO sequences(name, value) VALUES ('sample_commit', max(
                (SELECT coalesce(max(rowid), 0) FROM samples),
                (SELECT coalesce(max(position), 0) FROM upload_marks WHERE name = 'samples')));
            """)

    /// A sample that came back at the source after it was deleted: when the deletion it outranks
    /// happened, sent with it so the collector takes it back whichever arrives first.
    static let sampleRestorations = Migration(
        name: "0010_sample_restorations",
        sql: "ALTER TABLE samples ADD COLUMN restores_ms INTEGER;")

    /// The row id becomes the commit sequence number (the commit gives it, from the `sequences`
    /// counter), so the second index and column that 0009 wrote for every sample go: they made
    /// an import 8 % slower. Rows SQLite numbered below their sequence number move to it, through
    /// negative ids first, as one UPDATE straight to the number could meet a row not moved yet.
    static let commitSequenceAsRowID = Migration(
        name: "0011_commit_sequence_as_rowid",
        sql: """
            UPDATE samples SET rowid = -commit_seq WHERE rowid != commit_seq;
            UPDATE samples SET rowid = -rowid WHERE rowid < 0;
            DROP INDEX samples_by_commit;
            ALTER TABLE samples DROP COLUMN commit_seq;
            """)

    /// A source's own order of sources per metric (a Health Connect phone's app priority), for
    /// the local projections: one row per source, metric and rank.
    static let sourcePriorities = Migration(
        name: "0012_source_priorities",
        sql: """
            CREATE TABLE source_priorities(
                source TEXT NOT NULL,
                metric TEXT NOT NULL,
                position INTEGER NOT NULL,
                source_name TEXT NOT NULL,
                PRIMARY KEY(source, metric, position)
            ) WITHOUT ROWID;
            """)

    /// Following a collector's change feed: the cursor (one row, for the endpoint it belongs to),
    /// each projection scope's ETag, and the insight days pulled beside the rollups and nights.
    static let changeFeed = Migration(
        name: "0013_change_feed",
        sql: """
            CREATE TABLE feed_state(
                id INTEGER PRIMARY KEY CHECK(id = 1),
                endpoint TEXT NOT NULL,
                cursor INTEGER NOT NULL,
                head INTEGER NOT NULL,
                last_event_ms INTEGER,
                applied_ms INTEGER NOT NULL,
                rebuilds INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE projection_etags(scope TEXT PRIMARY KEY NOT NULL, etag TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE projection_insight_days(
                metric TEXT NOT NULL,
                day TEXT NOT NULL,
                figures TEXT NOT NULL,
                origin TEXT NOT NULL,
                refreshed_ms INTEGER NOT NULL,
                PRIMARY KEY(metric, day)
            ) WITHOUT ROWID;
            """)

    /// A sample's series is keyed by the sample's row id (its commit sequence number), not by its
    /// content id: series then arrive in key order and are appended. Keyed by 16 random bytes,
    /// each went to a different page of a table that outgrew the page cache, written to the log
    /// and read back whole for every series: a 16-million-record import read twice as many pages
    /// per record as a 1-million one. The old rows find their sample by content id; the samples
    /// are read only when there are any.
    static let seriesBySampleRow = Migration(
        name: "0014_series_by_sample_row",
        sql: """
            CREATE TABLE sample_series_by_row(sample_rowid INTEGER PRIMARY KEY, points TEXT NOT NULL);
            INSERT OR REPLACE INTO sample_series_by_row(sample_rowid, points)
                SELECT s.rowid, ss.points FROM samples s CROSS JOIN sample_series ss
                WHERE ss.sample_id = s.id AND EXISTS(SELECT 1 FROM sample_series);
            DROP TABLE sample_series;
            ALTER TABLE sample_series_by_row RENAME TO sample_series;
            """)
}
