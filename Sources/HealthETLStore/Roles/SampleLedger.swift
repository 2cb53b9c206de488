import HealthETLCore

/// Samples in and out: the one way to write them (a batch with its cursors, atomically) and the
/// reads the projections need.
public protocol SampleLedger: AnyObject {
    /// Writes a batch and advances its cursors in one transaction.
    func commit(_ batch: CommitBatch) throws -> CommitResult
    /// Samples of `metric` starting within `starts`, oldest first.
    func samples(metric: String, starts: Range<Instant>) throws -> [Sample]
    /// The last commit sequence number: a mark to send what commits after it.
    func lastSampleSequence() throws -> Int64
}

extension Store: SampleLedger {}
