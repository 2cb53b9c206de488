/// Everything one store transaction writes: a batch of one source stream and the cursor advances
/// it earns.
///
/// This is the only unit the store commits, so a cursor can never get ahead of its data.
public struct CommitBatch: Sendable {
    /// The source stream the batch comes from, e.g. `apple_health:export`.
    public var stream: String
    public var samples: [LanedSample]
    public var quarantined: [QuarantinedRecord]
    public var tombstones: [Tombstone]
    /// New cursor positions by lane; at least one, since a batch that moves no cursor could be
    /// committed again after a crash without anyone knowing.
    public var cursors: [Lane: Int64]

    public init(
        stream: String, samples: [LanedSample] = [], quarantined: [QuarantinedRecord] = [],
        tombstones: [Tombstone] = [], cursors: [Lane: Int64]
    ) {
        self.stream = stream
        self.samples = samples
        self.quarantined = quarantined
        self.tombstones = tombstones
        self.cursors = cursors
    }

    public var isEmpty: Bool { samples.isEmpty && quarantined.isEmpty && tombstones.isEmpty }
}
