import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore

/// `healthetl import` for one export: find the source that reads it (by probing its content, or
/// by name), resume after what the store already holds of it, and ingest it.
public struct ArchiveImport: Sendable {
    /// Samples ending this close to the export date go to the hot lane.
    public var hotWindowSeconds: Int64 = 7 * 86_400
    public var batchSize = IngestEngine.defaultBatchSize
    /// A source's registry name; `nil` probes the input.
    public var source: String?
    /// Read the whole input even where the store's cursors say it was committed.
    public var fromStart = false
    public var clock: Clock = .system

    public init() {}

    /// - Throws: `RegistryError` when no source reads the input; what the source or the store
    ///   threw when the read could not go on (the run is recorded as failed first).
    public func run(
        _ path: String, into store: Store, catalog: MetricCatalog, progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportSummary {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ImportInputError(path: path)
        }
        var input = SourceInput(path: path, hotWindowSeconds: hotWindowSeconds, readAt: clock.now())
        let adapter = try PluginRegistry.adapter(for: input, named: source)
        let name = type(of: adapter).name
        if !fromStart, type(of: adapter).capabilities.contains(.resumable) {
            input.resumeFrom = try ArchiveIngest.resumePoints(store: store, source: name)
        }
        // A source that does not resume re-reads from its start, and everything it reads counts.
        let resumes = !fromStart && type(of: adapter).capabilities.contains(.resumable)
        let ingest = try ArchiveIngest(
            store: store, catalog: catalog, source: name, input: path, batchSize: batchSize, resumes: resumes,
            clock: clock, progress: progress)
        var handler = ingest
        let report: SourceReadReport
        do {
            report = try adapter.read(input, into: &handler)
        } catch {
            _ = try? ingest.abandon(problem: "\(error)")
            throw error
        }
        return try ingest.finish(report)
    }
}

/// An input path that does not exist.
public struct ImportInputError: Error, CustomStringConvertible {
    public var path: String

    public var description: String {
        "\(path) does not exist; pass the path of an export.zip, export.xml or export folder"
    }
}
