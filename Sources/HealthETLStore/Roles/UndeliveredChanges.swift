import HealthETLCore

/// What is still to be sent: samples and tombstones after the marks the queued batches moved.
public protocol UndeliveredChanges: AnyObject {
    func uploadMark(_ mark: Store.UploadMark) throws -> Int64
    func samples(afterSequence sequence: Int64, limit: Int, committedSince: Instant?, leavingOutRealTime: Bool) throws
        -> [(sequence: Int64, sample: Sample)]
    func hotSamples(afterSequence sequence: Int64, metrics: Set<String>, limit: Int) throws
        -> [(sequence: Int64, sample: Sample)]
    func tombstones(afterSequence sequence: Int64, limit: Int) throws -> [(sequence: Int64, tombstone: Tombstone)]
    func lastTombstoneSequence() throws -> Int64
}

extension Store: UndeliveredChanges {}
