import HealthETLCore
import HealthETLSQLite

extension Store {
    /// Takes back everything import run `run` committed to `stream`, when its input turned out
    /// to be damaged (a CRC that fails at the end of a large entry): rows written since the run
    /// started are removed, and the stream's cursors and snapshot coverage are put back as they
    /// were, so a clean copy of the same export is read again from there. Rows committed
    /// earlier, and samples the run only found again, stay.
    /// - Returns: how many samples were removed.
    @discardableResult
    public func rollBack(run: Int64, stream: String, cursors: [Lane: Int64], coverage: [SnapshotCoverage])
        throws -> Int
    {
        let started = try connection.prepare("SELECT started_ms FROM import_runs WHERE id = ?1")
        try started.bind(.integer(run))
        let lookup = try connection.prepare("SELECT id FROM streams WHERE name = ?1")
        try lookup.bind(.text(stream))
        guard let since = try started.firstRow({ $0.int64(0) }), let streamID = try lookup.firstRow({ $0.int64(0) })
        else { return 0 }
        return try connection.writeTransaction {
            var dirty = DirtyKeySet()
            let written = try connection.prepare(
                """
                SELECT metric_id, start_ms, end_ms, utc_offset_s FROM samples
                WHERE stream_id = ?1 AND committed_ms >= ?2
                """)
            try written.bind(.integer(streamID), .integer(since))
            while try written.step() {
                DirtyKey.mark(
                    metric: written.int64(0), start: Instant(millisecondsSinceEpoch: written.int64(1)),
                    end: Instant(millisecondsSinceEpoch: written.int64(2)),
                    utcOffsetSeconds: written.isNull(3) ? nil : Int32(written.int64(3)), into: &dirty)
            }
            for sql in Self.rollbackStatements {
                try connection.prepare(sql).run(.integer(streamID), .integer(since))
            }
            let removed = connection.changes
            try connection.prepare("DELETE FROM snapshot_coverage WHERE stream_id = ?1").run(.integer(streamID))
            try widenCoverage(coverage, stream: streamID)
            for lane in Lane.allCases {
                try connection.prepare(
                    """
                    INSERT INTO cursors(stream_id, lane, position, updated_ms) VALUES (?1, ?2, ?3, ?4)
                    ON CONFLICT(stream_id, lane) DO UPDATE SET position = excluded.position,
                        updated_ms = excluded.updated_ms
                    """
                ).run(
                    .integer(streamID), .integer(Int64(lane.code)), .integer(cursors[lane] ?? 0),
                    .integer(now().millisecondsSinceEpoch))
            }
            try mark(dirty, at: now().millisecondsSinceEpoch)
            internedInTransaction.removeAll()
            return removed
        }
    }

    /// Each removes what a run wrote to stream ?1 from ?2 on; parts before their parents, and
    /// the samples last, so the count of removed samples is the last statement's.
    private static let rollbackStatements: [String] =
        [
            "DELETE FROM quarantine WHERE stream_id = ?1 AND committed_ms >= ?2",
            "DELETE FROM activity_summaries WHERE stream_id = ?1 AND committed_ms >= ?2",
            "DELETE FROM export_documents WHERE stream_id = ?1 AND committed_ms >= ?2",
        ]
        + ["workout_activities", "workout_events", "workout_statistics", "workout_route_points"].map {
            """
            DELETE FROM \($0) WHERE workout_id IN
                (SELECT id FROM workouts WHERE stream_id = ?1 AND committed_ms >= ?2)
            """
        }
        + [
            "DELETE FROM workouts WHERE stream_id = ?1 AND committed_ms >= ?2",
            "DELETE FROM sample_series WHERE sample_rowid IN "
                + "(SELECT rowid FROM samples WHERE stream_id = ?1 AND committed_ms >= ?2)",
            "DELETE FROM real_time_queued WHERE sample_id IN "
                + "(SELECT id FROM samples WHERE stream_id = ?1 AND committed_ms >= ?2)",
            "DELETE FROM samples WHERE stream_id = ?1 AND committed_ms >= ?2",
        ]
}
