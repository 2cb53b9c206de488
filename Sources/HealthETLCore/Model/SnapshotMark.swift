/// Which full snapshot (one import of an export file) a batch belongs to.
public struct SnapshotMark: Hashable, Sendable {
    /// The import run reading the snapshot.
    public var run: Int64
    /// The snapshot's "now" (the export date): a sample deleted later than this is not revived
    /// by this snapshot, since it predates the deletion.
    public var takenAt: Instant

    public init(run: Int64, takenAt: Instant) {
        self.run = run
        self.takenAt = takenAt
    }
}
