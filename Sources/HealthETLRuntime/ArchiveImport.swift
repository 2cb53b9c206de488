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

    /// `healthetl import PATH…`: every input in turn into the store, then tier 1 — the hot lane's
    /// tier-1 metrics committed by this run go out before it returns when a sink is configured.
    /// An input that cannot be read is counted in `failures` and the others go on.
    /// - Parameters:
    ///   - loadCatalog: called once, after the store is open.
    ///   - progress: for each input, what to tell while it is read (and `finished` after).
    /// - Throws: `RegistryError` when `source` names no source that reads files: no input can be.
    public func run(
        _ paths: [String], store directory: StoreDirectory, catalog loadCatalog: () throws -> MetricCatalog,
        progress: (String) -> ImportProgressReport = { _ in ImportProgressReport() }
    ) async throws -> ImportRun {
        let store = try Store(directory: directory, clock: clock)
        let lastSequenceBefore = try store.lastSampleSequence()
        // Taken once the store is open: the bundled catalog may still be reading (`prepareBundled`).
        let catalog = try loadCatalog()
        var run = ImportRun()
        var summaries: [ImportSummary] = []
        for path in paths {
            let report = progress(path)
            defer { report.finished() }
            do {
                summaries.append(try self.run(path, into: store, catalog: catalog, progress: report.progress))
            } catch let error as RegistryError where source != nil {
                throw error
            } catch {
                run.failures.append(ImportRun.Failure(path: path, error: error))
            }
        }
        guard !summaries.isEmpty else { return run }
        var summary = summaries.count == 1 ? summaries[0] : ImportSummary.total(of: summaries)
        do {
            if let sender = try RealTimeSender(store: directory, catalog: catalog, clock: clock) {
                let report = try await sender.send(afterSequence: lastSequenceBefore).report
                run.realTime = report
                summary.tier1Sent = report.acceptedItems
            }
        } catch {
            run.realTimeError = error
        }
        run.summary = summary
        return run
    }

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
        if let descriptor = PluginRegistry.descriptor(kind: .source, name: name) {
            input.settings = try StoreConfiguration.load(store: store.directory.path).settings(for: descriptor)
        }
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
