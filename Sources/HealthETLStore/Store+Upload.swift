import HealthETLCore
import HealthETLSQLite

/// The upload side of the store: reading what to send, and the one retry queue all tiers share.
extension Store {
    /// Marks of what the batch tier has queued already.
    public enum UploadMark: String, Sendable {
        /// The commit sequence number of the last sample queued: since migration 0011 the row id
        /// the commit gave it (a row id SQLite chose before 0009, which kept those as numbers).
        case sampleSequence = "samples"
        /// The last tombstone sequence number queued.
        case tombstoneSequence = "tombstones"
    }

    public func uploadMark(_ mark: UploadMark) throws -> Int64 {
        let statement = try prepared("SELECT position FROM upload_marks WHERE name = ?1")
        try statement.bind(.text(mark.rawValue))
        return try statement.firstRow { $0.int64(0) } ?? 0
    }

    /// Samples committed after the commit sequence number `sequence`, in commit order; with
    /// `committedSince`, only those committed since then (the catch-up window); with
    /// `leavingOutRealTime`, none that tier 1 queued already (the batch tier does not send them twice).
    public func samples(
        afterSequence sequence: Int64, limit: Int, committedSince: Instant? = nil, leavingOutRealTime: Bool = false
    ) throws -> [(sequence: Int64, sample: Sample)] {
        let statement = try cached(
            Self.sampleColumns
                + " WHERE s.rowid > ?1 AND s.committed_ms >= ?2"
                + " AND (?4 = 0 OR NOT EXISTS (SELECT 1 FROM real_time_queued AS r WHERE r.sample_id = s.id))"
                + " ORDER BY s.rowid LIMIT ?3")
        try statement.bind(
            .integer(sequence), .integer(committedSince?.millisecondsSinceEpoch ?? .min), .integer(Int64(limit)),
            .integer(leavingOutRealTime ? 1 : 0))
        return try RepeatedText.rows(of: statement) { ($0.int64(0), Self.sample($0, texts: &$1)) }
    }

    /// Hot-lane samples of the given metrics committed after the commit sequence number
    /// `sequence`, in commit order: what the real-time tier sends.
    public func hotSamples(afterSequence sequence: Int64, metrics: Set<String>, limit: Int) throws -> [(
        sequence: Int64, sample: Sample
    )] {
        guard !metrics.isEmpty else { return [] }
        // Catalog ids, quoted as SQL literals (a quote doubled).
        let names = metrics.sorted().map {
            "'" + $0.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        }
        .joined(separator: ",")
        let statement = try cached(
            Self.sampleColumns
                + " WHERE s.rowid > ?1 AND s.lane = 0 AND m.name IN (\(names)) ORDER BY s.rowid LIMIT ?2")
        try statement.bind(.integer(sequence), .integer(Int64(limit)))
        return try RepeatedText.rows(of: statement) { ($0.int64(0), Self.sample($0, texts: &$1)) }
    }

    /// The commit sequence number of the last sample committed, deleted or not (0 for a new
    /// store): the numbers only grow, so what commits later is after it.
    public func lastSampleSequence() throws -> Int64 {
        try prepared("SELECT value FROM sequences WHERE name = 'sample_commit'").firstRow { $0.int64(0) } ?? 0
    }

    /// Up to `limit` of a metric's samples that start within `starts`, by start and then id,
    /// after the sample at (`after.start`, `after.id`) when given: a page of a long range.
    public func samples(
        metric: String, starts: Range<Instant>, after: (start: Instant, id: ContentID)?, limit: Int
    ) throws -> [Sample] {
        let statement = try cached(
            Self.sampleColumns
                + " WHERE m.name = ?1 AND s.start_ms >= ?2 AND s.start_ms < ?3 AND (s.start_ms, s.id) > (?4, ?5)"
                + " ORDER BY s.start_ms, s.id LIMIT ?6")
        try statement.bind(
            .text(metric), .integer(starts.lowerBound.millisecondsSinceEpoch),
            .integer(starts.upperBound.millisecondsSinceEpoch),
            .integer(after?.start.millisecondsSinceEpoch ?? Int64.min), .blob(after?.id.bytes ?? []),
            .integer(Int64(limit)))
        return try RepeatedText.rows(of: statement) { Self.sample($0, texts: &$1) }
    }

    /// A metric's samples that start within `starts` (the projections' windows), by start.
    public func samples(metric: String, starts: Range<Instant>) throws -> [Sample] {
        let statement = try cached(
            Self.sampleColumns + " WHERE m.name = ?1 AND s.start_ms >= ?2 AND s.start_ms < ?3 ORDER BY s.start_ms")
        try statement.bind(
            .text(metric), .integer(starts.lowerBound.millisecondsSinceEpoch),
            .integer(starts.upperBound.millisecondsSinceEpoch))
        return try RepeatedText.rows(of: statement) { Self.sample($0, texts: &$1) }
    }

    /// A sample's commit sequence number and row with its names, and the two metadata entries the
    /// sinks and projections read.
    private static let sampleColumns = """
        SELECT s.rowid, s.id, m.name, src.name, s.source_version, d.description, s.start_ms, s.end_ms, s.utc_offset_s,
            s.value, s.category, s.value_text, s.unit_text, s.flags,
            CASE WHEN instr(s.metadata, 'HKTimeZone') > 0 THEN
                (SELECT j.value ->> 1 FROM json_each(s.metadata) AS j WHERE j.value ->> 0 = 'HKTimeZone') END,
            CASE WHEN instr(s.metadata, 'HKWasUserEntered') > 0 THEN
                (SELECT j.value ->> 1 FROM json_each(s.metadata) AS j WHERE j.value ->> 0 = 'HKWasUserEntered') END,
            s.restores_ms
        FROM samples AS s
        JOIN metrics AS m ON m.id = s.metric_id
        JOIN sources AS src ON src.id = s.source_id
        LEFT JOIN devices AS d ON d.id = s.device_id
        """

    /// The sample a row of `sampleColumns` holds; its names, device and zone are read through
    /// `texts` (a run of one source's samples shares their strings).
    private static func sample(_ statement: SQLiteStatement, texts: inout RepeatedText) -> Sample {
        var metadata: [MetadataEntry] = []
        if let zone = texts.text(14, of: statement) { metadata.append(MetadataEntry(key: "HKTimeZone", value: zone)) }
        if let entered = texts.text(15, of: statement) {
            metadata.append(MetadataEntry(key: "HKWasUserEntered", value: entered))
        }
        var sample = Sample(
            id: statement.contentID(1), metric: texts.text(2, of: statement) ?? "",
            sourceName: texts.text(3, of: statement) ?? "",
            sourceVersion: texts.text(4, of: statement), device: texts.text(5, of: statement),
            start: Instant(millisecondsSinceEpoch: statement.int64(6)),
            end: Instant(millisecondsSinceEpoch: statement.int64(7)),
            utcOffsetSeconds: statement.isNull(8) ? nil : Int32(statement.int64(8)),
            value: statement.isNull(9) ? nil : statement.double(9), category: texts.text(10, of: statement),
            valueAsWritten: statement.text(11), unitAsWritten: texts.text(12, of: statement),
            flags: SampleFlags(rawValue: Int(statement.int64(13))), metadata: metadata)
        if !statement.isNull(16) { sample.restoresDeletionAt = Instant(millisecondsSinceEpoch: statement.int64(16)) }
        return sample
    }

    /// Tombstones after a sequence number, oldest first.
    public func tombstones(afterSequence sequence: Int64, limit: Int) throws -> [(
        sequence: Int64, tombstone: Tombstone
    )] {
        let statement = try prepared(
            """
            SELECT l.seq, t.sample_id, m.name, t.start_ms, t.end_ms, t.reason, t.deleted_ms
            FROM tombstone_log AS l
            JOIN tombstones AS t ON t.sample_id = l.sample_id
            JOIN metrics AS m ON m.id = t.metric_id
            WHERE l.seq > ?1 ORDER BY l.seq LIMIT ?2
            """)
        try statement.bind(.integer(sequence), .integer(Int64(limit)))
        var result: [(Int64, Tombstone)] = []
        while try statement.step() {
            result.append(
                (
                    statement.int64(0),
                    Tombstone(
                        sampleID: statement.contentID(1), metric: statement.text(2) ?? "",
                        start: Instant(millisecondsSinceEpoch: statement.int64(3)),
                        end: statement.isNull(4) ? nil : Instant(millisecondsSinceEpoch: statement.int64(4)),
                        reason: statement.text(5) ?? "", deletedAt: Instant(millisecondsSinceEpoch: statement.int64(6)))
                ))
        }
        return result
    }

    /// The highest tombstone sequence number (the catch-up window re-sends tombstones by it).
    public func lastTombstoneSequence() throws -> Int64 {
        try connection.scalar("SELECT coalesce(max(seq), 0) FROM tombstone_log") ?? 0
    }

    /// Puts an encoded batch in the queue and moves the marks past what it holds, in one
    /// transaction: the batch id is stored before the first send. A batch id already queued
    /// (the same content again) is left as it is.
    public func enqueueUpload(
        batchID: String, tier: UploadTier, payload: [UInt8], samples: Int, deletions: Int,
        marks: [UploadMark: Int64] = [:],
        realTimeSamples: [ContentID] = []
    ) throws {
        let now = now()
        try connection.writeTransaction {
            try prepared(
                """
                INSERT INTO upload_queue(batch_id, tier, state, samples, deletions, payload, next_attempt_ms, created_ms, updated_ms)
                VALUES (?1, ?2, 0, ?3, ?4, ?5, ?6, ?6, ?6)
                ON CONFLICT(batch_id) DO NOTHING
                """
            ).run(
                .text(batchID), .integer(Int64(tier.rawValue)), .integer(Int64(samples)), .integer(Int64(deletions)),
                .blob(payload), .integer(now.millisecondsSinceEpoch))
            let queuedByTierOne = try prepared(
                "INSERT INTO real_time_queued(sample_id) VALUES (?1) ON CONFLICT DO NOTHING")
            for id in realTimeSamples { try queuedByTierOne.run(.blob(id.bytes)) }
            for (mark, position) in marks {
                try prepared(
                    """
                    INSERT INTO upload_marks(name, position) VALUES (?1, ?2)
                    ON CONFLICT(name) DO UPDATE SET position = max(position, excluded.position)
                    """
                ).run(.text(mark.rawValue), .integer(position))
            }
        }
    }

    /// Returns to pending every in-flight batch whose lease expired or whose holder is gone, then
    /// leases the next ready batch (lowest tier first, oldest first) to `owner`, passing over the
    /// batch ids in `skipping` (those a run has tried already).
    /// - Returns: the leased item and its payload, or nil when nothing is ready.
    public func leaseNextUpload(
        owner: Int32, leaseSeconds: Int64, tiers: Set<UploadTier> = Set(UploadTier.allCases),
        skipping: Set<String> = [], isAlive: (Int32) -> Bool
    ) throws -> (item: QueueItem, payload: [UInt8])? {
        let now = now()
        return try connection.writeTransaction {
            try reclaimUploads(now: now, isAlive: isAlive)
            let select = try prepared(
                """
                SELECT batch_id, tier, state, attempts, next_attempt_ms, last_error, payload FROM upload_queue
                WHERE state IN (0, 2) AND next_attempt_ms <= ?1 ORDER BY tier, next_attempt_ms, created_ms, batch_id
                """)
            try select.bind(.integer(now.millisecondsSinceEpoch))
            while try select.step() {
                guard var item = queueItem(select), tiers.contains(item.tier), !skipping.contains(item.batchID) else {
                    continue
                }
                let payload = select.blob(6)
                // A statement left on its row keeps a read snapshot open after COMMIT (SQLITE_BUSY_SNAPSHOT later).
                select.reset()
                try item.lease(owner: owner, now: now, seconds: leaseSeconds)
                try save(item, now: now)
                return (item, payload)
            }
            return nil
        }
    }

    private func reclaimUploads(now: Instant, isAlive: (Int32) -> Bool) throws {
        let select = try prepared(
            "SELECT batch_id, tier, state, attempts, next_attempt_ms, last_error, lease_owner, lease_until_ms FROM upload_queue WHERE state = 1"
        )
        var reclaimed: [QueueItem] = []
        while try select.step() {
            guard var item = queueItem(select) else { continue }
            item.lease = QueueLease(
                owner: Int32(select.int64(6)), until: Instant(millisecondsSinceEpoch: select.int64(7)))
            if item.reclaim(now: now, isAlive: isAlive) { reclaimed.append(item) }
        }
        for item in reclaimed { try save(item, now: now) }
    }

    /// Writes an item's state after a delivery attempt by the lease's holder; a delivered batch
    /// drops its payload and keeps the items the sink refused.
    /// - Returns: false, changing nothing, when `owner` no longer holds the batch in flight (its
    ///   lease was reclaimed, and maybe given to another uploader, who records it).
    @discardableResult
    public func recordUpload(
        _ item: QueueItem, heldBy owner: Int32, accepted: Int? = nil, rejections: [ItemRejection] = []
    ) throws -> Bool {
        let now = now()
        return try connection.writeTransaction {
            let update = try prepared(
                """
                UPDATE upload_queue SET state = ?2, attempts = ?3, next_attempt_ms = ?4, lease_owner = NULL,
                    lease_until_ms = NULL, last_error = ?5, updated_ms = ?6
                WHERE batch_id = ?1 AND state = 1 AND lease_owner = ?7
                """)
            let changed = try update.run(
                .text(item.batchID), .integer(Int64(item.state.rawValue)), .integer(Int64(item.attempts)),
                .integer(item.nextAttempt.millisecondsSinceEpoch), .optional(item.lastError),
                .integer(now.millisecondsSinceEpoch), .integer(Int64(owner)))
            guard changed == 1 else { return false }
            if item.state == .done {
                try prepared("UPDATE upload_queue SET payload = NULL, accepted = ?2 WHERE batch_id = ?1")
                    .run(.text(item.batchID), .optional(accepted.map(Int64.init)))
                for rejection in rejections {
                    try prepared(
                        "INSERT INTO upload_rejections(batch_id, item_id, reason) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING"
                    ).run(.text(item.batchID), .blob(rejection.id.bytes), .text(rejection.reason))
                }
            }
            return true
        }
    }

    private func save(_ item: QueueItem, now: Instant) throws {
        try prepared(
            """
            UPDATE upload_queue SET state = ?2, attempts = ?3, next_attempt_ms = ?4, lease_owner = ?5, lease_until_ms = ?6,
                last_error = ?7, updated_ms = ?8
            WHERE batch_id = ?1
            """
        ).run(
            .text(item.batchID), .integer(Int64(item.state.rawValue)), .integer(Int64(item.attempts)),
            .integer(item.nextAttempt.millisecondsSinceEpoch), .optional(item.lease.map { Int64($0.owner) }),
            .optional(item.lease?.until.millisecondsSinceEpoch), .optional(item.lastError),
            .integer(now.millisecondsSinceEpoch))
    }

    private func queueItem(_ statement: SQLiteStatement) -> QueueItem? {
        guard let tier = UploadTier(rawValue: Int(statement.int64(1))),
            let state = QueueState(rawValue: Int(statement.int64(2)))
        else { return nil }
        return QueueItem(
            batchID: statement.text(0) ?? "", tier: tier, state: state, attempts: Int(statement.int64(3)),
            nextAttempt: Instant(millisecondsSinceEpoch: statement.int64(4)), lastError: statement.text(5))
    }

    // MARK: operations

    /// Batches by state.
    public func uploadCounts() throws -> [QueueState: Int] {
        let statement = try prepared("SELECT state, count(*) FROM upload_queue GROUP BY state")
        var counts = Dictionary(uniqueKeysWithValues: QueueState.allCases.map { ($0, 0) })
        while try statement.step() {
            if let state = QueueState(rawValue: Int(statement.int64(0))) { counts[state] = Int(statement.int64(1)) }
        }
        return counts
    }

    /// The queue's batches in the given states, oldest first.
    public func uploads(in states: Set<QueueState>, limit: Int) throws -> [QueuedUpload] {
        let codes = states.map { String($0.rawValue) }.sorted().joined(separator: ",")
        let statement = try cached(
            """
            SELECT q.batch_id, q.tier, q.state, q.attempts, q.next_attempt_ms, q.last_error, q.samples, q.deletions,
                q.accepted, (SELECT count(*) FROM upload_rejections AS r WHERE r.batch_id = q.batch_id), q.created_ms,
                q.lease_owner, q.lease_until_ms
            FROM upload_queue AS q WHERE q.state IN (\(codes)) ORDER BY q.created_ms, q.batch_id LIMIT ?1
            """)
        try statement.bind(.integer(Int64(limit)))
        var result: [QueuedUpload] = []
        while try statement.step() {
            guard var item = queueItem(statement) else { continue }
            if !statement.isNull(11) {
                item.lease = QueueLease(
                    owner: Int32(statement.int64(11)), until: Instant(millisecondsSinceEpoch: statement.int64(12)))
            }
            result.append(
                QueuedUpload(
                    item: item, samples: Int(statement.int64(6)), deletions: Int(statement.int64(7)),
                    accepted: statement.isNull(8) ? nil : Int(statement.int64(8)), rejected: Int(statement.int64(9)),
                    created: Instant(millisecondsSinceEpoch: statement.int64(10))))
        }
        return result
    }

    /// Puts dead (and failed) batches back to pending: one by id, or every dead one.
    /// - Returns: how many were retried.
    public func retryUploads(batchID: String?) throws -> Int {
        let now = now()
        return try connection.writeTransaction {
            let select = try cached(
                batchID == nil
                    ? "SELECT batch_id, tier, state, attempts, next_attempt_ms, last_error FROM upload_queue WHERE state = 4"
                    : "SELECT batch_id, tier, state, attempts, next_attempt_ms, last_error FROM upload_queue WHERE batch_id = ?1"
            )
            if let batchID { try select.bind(.text(batchID)) } else { select.reset() }
            var items: [QueueItem] = []
            while try select.step() { if let item = queueItem(select) { items.append(item) } }
            var retried = 0
            for var item in items {
                guard (try? item.retry(now: now)) != nil else { continue }
                try save(item, now: now)
                retried += 1
            }
            return retried
        }
    }

    /// Removes the dead batches and their payloads. Their samples stay in the store (a catch-up
    /// with a wide enough window sends them again).
    public func purgeDeadUploads() throws -> Int {
        try connection.writeTransaction {
            try prepared(
                "DELETE FROM upload_rejections WHERE batch_id IN (SELECT batch_id FROM upload_queue WHERE state = 4)"
            ).run()
            return try prepared("DELETE FROM upload_queue WHERE state = 4").run()
        }
    }

    /// When the earliest pending or failed batch of `tiers` may be tried.
    public func nextUploadAttempt(tiers: Set<UploadTier> = Set(UploadTier.allCases)) throws -> Instant? {
        let codes = tiers.map { String($0.rawValue) }.sorted().joined(separator: ",")
        let statement = try cached(
            "SELECT min(next_attempt_ms) FROM upload_queue WHERE state IN (0, 2) AND tier IN (\(codes.isEmpty ? "0" : codes))"
        )
        statement.reset()
        return try statement.firstRow { $0.isNull(0) ? nil : Instant(millisecondsSinceEpoch: $0.int64(0)) } ?? nil
    }

    /// Records that an upload run (`upload`, `sync`) started; finish it with its summary.
    public func beginUploadRun(kind: String) throws -> Int64 {
        try prepared("INSERT INTO upload_runs(kind, started_ms) VALUES (?1, ?2)").run(
            .text(kind), .integer(now().millisecondsSinceEpoch))
        return try connection.scalar("SELECT last_insert_rowid()") ?? 0
    }

    public func finishUploadRun(id: Int64, summaryJSON: String) throws {
        try prepared("UPDATE upload_runs SET finished_ms = ?2, summary = ?3 WHERE id = ?1")
            .run(.integer(id), .integer(now().millisecondsSinceEpoch), .text(summaryJSON))
    }
}
