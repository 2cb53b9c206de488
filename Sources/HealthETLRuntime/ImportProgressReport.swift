import HealthETLPipeline

/// How a caller of `ArchiveImport.run(_:store:catalog:progress:)` follows one input: told about
/// twice a second while it is read, and once when it is done (read, or given up on).
public struct ImportProgressReport {
    public var progress: ((ImportProgress) -> Void)?
    public var finished: () -> Void

    public init(progress: ((ImportProgress) -> Void)? = nil, finished: @escaping () -> Void = {}) {
        self.progress = progress
        self.finished = finished
    }
}
