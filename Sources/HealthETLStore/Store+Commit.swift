import HealthETLCore
import HealthETLSQLite

extension Store {
    /// Writes a batch and advances its cursors in one transaction.
    /// - Throws: `StoreError.cursorMovedBackwards` (nothing written), `SQLiteError` (nothing written).
    @discardableResult
    public func commit(_ batch: CommitBatch) throws -> CommitResult {
        guard !batch.cursors.isEmpty else { throw StoreError.batchWithoutCursor(stream: batch.stream) }
        let committedAt = now().millisecondsSinceEpoch
        do {
            return try connection.withoutForeignKeyEnforcement { try commitTransaction(batch, at: committedAt) }
        } catch {
            for (table, name) in internedInTransaction { interned[table]?[name] = nil }
            lastInterned = Array(repeating: nil, count: InternTable.allCases.count)
            internedInTransaction.removeAll()
            throw error
        }
    }

    private func commitTransaction(_ batch: CommitBatch, at committedAt: Int64) throws -> CommitResult {
        try connection.writeTransaction {
            var context = CommitContext(
                stream: try intern(.streams, batch.stream), committedAt: committedAt, snapshot: batch.snapshot,
                tombstonesExist: try connection.scalar("SELECT EXISTS(SELECT 1 FROM tombstones)") == 1,
                lastSequence: try lastSampleSequence())
            var result = CommitResult()
            result.sampleOutcomes.reserveCapacity(batch.samples.count)
            var nextTombstone = 0
            var position = 0
            while position < batch.samples.count {
                // The source's order: a deletion before the sample's return must not undo it.
                while nextTombstone < batch.tombstones.count, batch.position(ofTombstone: nextTombstone) <= position {
                    result.tombstones += try apply(batch.tombstones[nextTombstone], context: &context)
                    nextTombstone += 1
                }
                let run = batch.position(ofTombstone: nextTombstone) - position
                if !context.tombstonesExist, run >= Self.samplesPerInsert {
                    let samples = batch.samples[position..<position + Self.samplesPerInsert]
                    for outcome in try insert(samples, context: &context) { result.count(outcome) }
                    position += Self.samplesPerInsert
                } else {
                    result.count(try insert(batch.samples[position], context: &context))
                    position += 1
                }
            }
            for record in batch.quarantined {
                if try insert(record, context: context) {
                    result.quarantined += 1
                } else {
                    result.quarantineDuplicates += 1
                }
            }
            for tombstone in batch.tombstones[nextTombstone...] {
                result.tombstones += try apply(tombstone, context: &context)
            }
            try write(batch.workouts, context: context, into: &result)
            try write(batch.activitySummaries, context: context, into: &result)
            try write(batch.documents, context: context, into: &result)
            try mark(context.dirty, at: committedAt)
            try prepared("UPDATE sequences SET value = ?1 WHERE name = 'sample_commit' AND value < ?1")
                .run(.integer(context.lastSequence))
            if batch.snapshot != nil { try widenCoverage(batch.coverage, stream: context.stream) }
            try faultInjection?(.afterRows)
            for (lane, position) in batch.cursors.sorted(by: { $0.key < $1.key }) {
                try advance(stream: context.stream, name: batch.stream, lane: lane, to: position, at: committedAt)
            }
            try faultInjection?(.beforeCommit)
            internedInTransaction.removeAll()
            return result
        }
    }

    /// Samples inserted by one statement when no tombstone can keep one out: a statement is
    /// started, stepped and reset once for them all, not once a sample (with values bound
    /// without copies, SQLite's share of an import fell from 22.7 % to 16.6 % of its time).
    static let samplesPerInsert = 64

    private func insert(_ laned: LanedSample, context: inout CommitContext) throws -> SampleOutcome {
        let sample = laned.sample
        var restores: Int64?
        if context.tombstonesExist {
            switch try deletionStanding(sample.id, lane: laned.lane, snapshot: context.snapshot) {
            case .none: break
            case .deletedEarlier: return .deletedEarlier
            case .outranked(let deletedAt): restores = deletedAt
            }
        }
        let statement = try sampleInsert(rows: 1)
        let metric = try statement.rebind { parameters in
            try bindShared(to: &parameters, context: context)
            let metric = try bind(
                laned, from: Self.sharedParameters + 1, to: &parameters, rowID: context.lastSequence + 1,
                context: &context)
            try parameters.bind(Self.sharedParameters + Self.rowParameters, restores)
            return metric
        }
        guard try statement.execute() == 1 else {
            if let snapshot = context.snapshot { try markSeen(sample, metric: metric, in: snapshot) }
            return .duplicate
        }
        context.lastSequence += 1
        try stored(sample, rowID: context.lastSequence, metric: metric, context: &context)
        return .inserted
    }

    /// Inserts samples no tombstone can keep out in one statement. Each is given the next
    /// sequence number; one whose identity is stored already is left out by SQLite, and its
    /// number stays unused (`lastSequence` is the last stored one's).
    private func insert(_ samples: ArraySlice<LanedSample>, context: inout CommitContext) throws -> [SampleOutcome] {
        let statement = try sampleInsert(rows: samples.count)
        let first = context.lastSequence + 1
        var metrics: [Int64] = []
        metrics.reserveCapacity(samples.count)
        // Each row's `restores_ms`, its last parameter, is never bound: NULL.
        try statement.rebind { parameters in
            try bindShared(to: &parameters, context: context)
            for (offset, laned) in samples.enumerated() {
                metrics.append(
                    try bind(
                        laned, from: Self.sharedParameters + Self.rowParameters * Int32(offset) + 1, to: &parameters,
                        rowID: first + Int64(offset), context: &context))
            }
        }
        let inserted = try statement.execute()
        let stored = inserted == samples.count ? nil : try rowIDs(from: first, count: samples.count)
        var outcomes: [SampleOutcome] = []
        outcomes.reserveCapacity(samples.count)
        for (offset, laned) in samples.enumerated() {
            let rowID = first + Int64(offset)
            if stored?.contains(rowID) ?? true {
                context.lastSequence = rowID
                try self.stored(laned.sample, rowID: rowID, metric: metrics[offset], context: &context)
                outcomes.append(.inserted)
            } else {
                if let snapshot = context.snapshot { try markSeen(laned.sample, metric: metrics[offset], in: snapshot) }
                outcomes.append(.duplicate)
            }
        }
        return outcomes
    }

    /// The parameters every row of an insert shares (`bindShared`), numbered first.
    static let sharedParameters: Int32 = 3
    /// The parameters of each row (`bind`), the last of them its `restores_ms`.
    static let rowParameters: Int32 = 17

    /// The insert of `rows` samples, prepared once per size. The row id is the commit sequence
    /// number, given rather than left to SQLite, which would hand out ids of deleted rows again.
    /// Only a duplicate of the identity is skipped: a row id taken already is an error, never
    /// passed off as a duplicate.
    private func sampleInsert(rows: Int) throws -> SQLiteStatement {
        if let statement = sampleInserts[rows] { return statement }
        // The stream, commit time and snapshot are the commit's, the same in every row: bound
        // once as ?1 to ?3, not once a row. The rest by position (`?`, numbered on from the
        // highest before it), not by number: SQLite looks each `?NNN` up in a list of those
        // seen before it, which made preparing a statement of 64 rows take 2 ms.
        let row = "(?1, ?2, ?3, " + repeatElement("?", count: Int(Self.rowParameters)).joined(separator: ", ") + ")"
        let statement = try connection.prepare(
            """
            INSERT INTO samples(stream_id, committed_ms, snapshot_ms, id, metric_id, source_id, source_version,
                device_id, start_ms, end_ms, utc_offset_s, value, category, value_text, unit_text, flags, lane,
                metadata, rowid, restores_ms)
            VALUES \(repeatElement(row, count: rows).joined(separator: ", "))
            ON CONFLICT(metric_id, start_ms, id) DO NOTHING
            """)
        sampleInserts[rows] = statement
        return statement
    }

    /// Binds what every row of a `sampleInsert` shares, its first parameters.
    private func bindShared(to parameters: inout SQLiteParameters, context: CommitContext) throws {
        try parameters.bind(1, context.stream)
        try parameters.bind(2, context.committedAt)
        try parameters.bind(3, context.snapshot?.takenAt.millisecondsSinceEpoch)
    }

    /// Binds a sample to a row's parameters of a `sampleInsert`, `first` to `first + 15`, every
    /// one of them (`rebind`); the one after them, `restores_ms`, is the caller's. Returns its
    /// metric's id.
    private func bind(
        _ laned: LanedSample, from first: Int32, to parameters: inout SQLiteParameters, rowID: Int64,
        context: inout CommitContext
    ) throws -> Int64 {
        let sample = laned.sample
        let metric = try intern(.metrics, sample.metric, after: &context.lastMetric)
        try parameters.bind(first, sample.id)
        try parameters.bind(first + 1, metric)
        try parameters.bind(first + 2, try intern(.sources, sample.sourceName, after: &context.lastSource))
        try parameters.bind(first + 3, sample.sourceVersion)
        try parameters.bind(first + 4, try sample.device.map { try intern(.devices, $0, after: &context.lastDevice) })
        try parameters.bind(first + 5, sample.start.millisecondsSinceEpoch)
        try parameters.bind(first + 6, sample.end.millisecondsSinceEpoch)
        try parameters.bind(first + 7, sample.utcOffsetSeconds.map { Int64($0) })
        try parameters.bind(first + 8, sample.value)
        try parameters.bind(first + 9, sample.category)
        try parameters.bind(first + 10, sample.valueAsWritten)
        try parameters.bind(first + 11, sample.unitAsWritten)
        try parameters.bind(first + 12, Int64(sample.flags.rawValue))
        try parameters.bind(first + 13, Int64(laned.lane.code))
        try parameters.bind(first + 14, laned.metadataJSON)
        try parameters.bind(first + 15, rowID)
        return metric
    }

    /// The row ids from `first` on, `count` of them, that are stored.
    private func rowIDs(from first: Int64, count: Int) throws -> Set<Int64> {
        let statement = try prepared("SELECT rowid FROM samples WHERE rowid BETWEEN ?1 AND ?2")
        try statement.bind(.integer(first), .integer(first + Int64(count) - 1))
        var rowIDs: Set<Int64> = []
        while try statement.step() { rowIDs.insert(statement.int64(0)) }
        return rowIDs
    }

    /// What a newly stored sample adds: its days to project again, its series (by its row id).
    private func stored(_ sample: Sample, rowID: Int64, metric: Int64, context: inout CommitContext) throws {
        DirtyKey.mark(
            metric: metric, start: sample.start, end: sample.end, utcOffsetSeconds: sample.utcOffsetSeconds,
            into: &context.dirty)
        if !sample.series.isEmpty {
            try prepared("INSERT OR REPLACE INTO sample_series(sample_rowid, points) VALUES (?1, ?2)")
                .run(.integer(rowID), .text(JSONText.points(sample.series)))
        }
    }

    /// What a tombstone means for a sample arriving now. History (the hot and cold lanes) can be
    /// older than any deletion, so it stays out, unless a snapshot taken after the deletion holds
    /// it again. The change lane carries the source's edits in its own order: a sample there came
    /// back after the deletion. Either way the data came back at the source, and the tombstone,
    /// not yet or already sent, gives way.
    private func deletionStanding(_ id: ContentID, lane: Lane, snapshot: SnapshotMark?) throws -> DeletionStanding {
        let lookup = try prepared("SELECT deleted_ms FROM tombstones WHERE sample_id = ?1")
        try lookup.bind(.blob(id.bytes))
        guard let deletedAt = try lookup.firstRow({ $0.int64(0) }) else { return .none }
        let seenSince = snapshot.map { $0.takenAt.millisecondsSinceEpoch > deletedAt } ?? false
        guard lane == .change || seenSince else { return .deletedEarlier }
        try prepared("DELETE FROM tombstones WHERE sample_id = ?1").run(.blob(id.bytes))
        return .outranked(deletedAt: deletedAt)
    }

    /// Once per duplicate of a snapshot (every record of an export read again): its values are
    /// bound one by one, without the arrays a list of values would allocate.
    private func markSeen(_ sample: Sample, metric: Int64, in snapshot: SnapshotMark) throws {
        let statement = try prepared(
            """
            UPDATE samples SET snapshot_ms = ?1
            WHERE metric_id = ?2 AND start_ms = ?3 AND id = ?4 AND snapshot_ms IS NOT ?1
            """
        )
        statement.reset()
        try statement.bind(1, snapshot.takenAt.millisecondsSinceEpoch)
        try statement.bind(2, metric)
        try statement.bind(3, sample.start.millisecondsSinceEpoch)
        try statement.bind(4, sample.id)
        _ = try statement.execute()
    }

    private func insert(_ record: QuarantinedRecord, context: CommitContext) throws -> Bool {
        let statement = try prepared(
            """
            INSERT INTO quarantine(id, reason, detail, raw, stream_id, committed_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT DO NOTHING
            """)
        return try statement.run(
            .blob(record.id.bytes), .text(record.reason.rawValue), .text(record.detail),
            .text(record.raw.rawJSON), .integer(context.stream), .integer(context.committedAt)) == 1
    }

    /// Removes the sample if present and records the tombstone. Returns 1 if the tombstone is new.
    private func apply(_ tombstone: Tombstone, context: inout CommitContext) throws -> Int {
        // A sample after it in this batch must find it.
        context.tombstonesExist = true
        let metric = try intern(.metrics, tombstone.metric)
        let lookup = try prepared(
            """
            SELECT rowid, end_ms, utc_offset_s FROM samples
            WHERE metric_id = ?1 AND start_ms = ?2 AND id = ?3
            """)
        try lookup.bind(
            .integer(metric), .integer(tombstone.start.millisecondsSinceEpoch), .blob(tombstone.sampleID.bytes))
        var end = tombstone.end?.millisecondsSinceEpoch
        let stored = try lookup.firstRow { ($0.int64(0), $0.int64(1), $0.isNull(2) ? nil : Int32($0.int64(2))) }
        if let (rowid, endMilliseconds, offset) = stored {
            end = end ?? endMilliseconds
            DirtyKey.mark(
                metric: metric, start: tombstone.start, end: Instant(millisecondsSinceEpoch: endMilliseconds),
                utcOffsetSeconds: offset, into: &context.dirty)
            try prepared("DELETE FROM samples WHERE rowid = ?1").run(.integer(rowid))
            try prepared("DELETE FROM sample_series WHERE sample_rowid = ?1").run(.integer(rowid))
        } else if let known = tombstone.end {
            // Not stored (yet): its days are dirty all the same, so the store's dirty keys do not
            // depend on whether the deletion overtook the sample.
            DirtyKey.mark(
                metric: metric, start: tombstone.start, end: known, utcOffsetSeconds: tombstone.utcOffsetSeconds,
                into: &context.dirty)
        }
        return try prepared(
            """
            INSERT INTO tombstones(sample_id, metric_id, start_ms, end_ms, reason,
                deleted_ms, stream_id, committed_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            ON CONFLICT DO NOTHING
            """
        ).run(
            .blob(tombstone.sampleID.bytes), .integer(metric), .integer(tombstone.start.millisecondsSinceEpoch),
            .optional(end), .text(tombstone.reason), .integer(tombstone.deletedAt.millisecondsSinceEpoch),
            .integer(context.stream), .integer(context.committedAt))
    }

    /// Widens what the stream's snapshot covers by the batch's ranges, in the batch's transaction.
    func widenCoverage(_ ranges: [SnapshotCoverage], stream: Int64) throws {
        let upsert = try prepared(
            """
            INSERT INTO snapshot_coverage(stream_id, metric_id, source_id, earliest_ms, latest_ms)
            VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT DO UPDATE SET earliest_ms = min(earliest_ms, excluded.earliest_ms),
                latest_ms = max(latest_ms, excluded.latest_ms)
            """)
        for range in ranges {
            try upsert.run(
                .integer(stream), .integer(try intern(.metrics, range.metric)),
                .integer(try intern(.sources, range.sourceName)),
                .integer(range.earliestStart.millisecondsSinceEpoch), .integer(range.latestStart.millisecondsSinceEpoch)
            )
        }
    }

    func mark(_ keys: DirtyKeySet, at committedAt: Int64) throws {
        let statement = try prepared(
            """
            INSERT INTO dirty_keys(metric_id, day, marked_ms) VALUES (?1, ?2, ?3)
            ON CONFLICT(metric_id, day) DO UPDATE SET marked_ms = excluded.marked_ms
            """)
        for key in keys {
            try statement.run(
                .integer(key.metric), .text(CivilDate(daysSinceEpoch: key.day).description), .integer(committedAt))
        }
    }

    private func advance(stream: Int64, name: String, lane: Lane, to position: Int64, at committedAt: Int64) throws {
        let current = try prepared("SELECT position FROM cursors WHERE stream_id = ?1 AND lane = ?2")
        try current.bind(.integer(stream), .integer(Int64(lane.code)))
        if let committed = try current.firstRow({ $0.int64(0) }), committed > position {
            throw StoreError.cursorMovedBackwards(stream: name, lane: lane, current: committed, requested: position)
        }
        try prepared(
            """
            INSERT INTO cursors(stream_id, lane, position, updated_ms) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT(stream_id, lane) DO UPDATE SET position = excluded.position,
                updated_ms = excluded.updated_ms
            """
        ).run(.integer(stream), .integer(Int64(lane.code)), .integer(position), .integer(committedAt))
    }
}

/// What every row of one commit shares, and the projection keys it dirties.
struct CommitContext {
    let stream: Int64
    let committedAt: Int64
    let snapshot: SnapshotMark?
    var tombstonesExist: Bool
    /// The commit sequence number of the last sample inserted (the upload marks follow it).
    var lastSequence: Int64
    var dirty = DirtyKeySet()
    /// The names the last sample bound, with their ids (`Store.intern(_:_:after:)`).
    var lastMetric = InternedName()
    var lastSource = InternedName()
    var lastDevice = InternedName()

    init(stream: Int64, committedAt: Int64, snapshot: SnapshotMark?, tombstonesExist: Bool, lastSequence: Int64) {
        self.stream = stream
        self.committedAt = committedAt
        self.snapshot = snapshot
        self.tombstonesExist = tombstonesExist
        self.lastSequence = lastSequence
    }
}

/// Whether a stored tombstone keeps an arriving sample out.
enum DeletionStanding {
    /// The sample was never deleted.
    case none
    /// Deleted, and the arriving copy is no newer than the deletion.
    case deletedEarlier
    /// The sample came back at the source after the deletion of that time (milliseconds).
    case outranked(deletedAt: Int64)
}
