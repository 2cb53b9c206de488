import HealthETLCore
import HealthETLPipeline

/// What `healthetl import` did with every input it was given: the total (each input's own in
/// `summary.inputs` when there were several), the inputs that could not be read, and tier 1.
public struct ImportRun: Sendable {
    /// An input that could not be read at all, and why.
    public struct Failure: Sendable {
        public var path: String
        public var error: any Error
    }

    /// Every input read, added up; `nil` when none could be.
    public var summary: ImportSummary?
    public var failures: [Failure] = []
    /// Tier 1 after the commits: `nil` when no sink is configured.
    public var realTime: UploadReport?
    /// Why tier 1 failed, when it did: what it could not send waits in the queue for `upload`.
    public var realTimeError: (any Error)?

    /// Every input read, whole.
    public var isComplete: Bool { failures.isEmpty && summary?.complete == true }
}
