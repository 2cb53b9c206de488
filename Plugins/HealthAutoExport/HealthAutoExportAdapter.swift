import HealthETLCore

/// Source adapter `health_auto_export`: the JSON Health Auto Export (iOS) writes — a file, a
/// folder of them, or a zip of them — with or without the `{"data": …}` envelope, formats v1 and
/// v2: metrics (summarized or not, and the special shapes), workouts, state of mind, symptoms,
/// ECG, heart-rate notifications and medications. The same JSON pushed to `healthetl receive`
/// is read by `events(ofBody:catalog:)`.
///
/// HAE's files overlap (each export repeats a window), so they are no snapshots: a record's
/// identity is its content, and what was stored before is counted as a duplicate, never twice.
/// A read is not resumed from a cursor (files come and go in a folder, so a byte position means
/// nothing across runs); a run read again after a crash stores only what is new.
public struct HealthAutoExportAdapter: SourceAdapter {
    public static let name = "health_auto_export"
    public static let summary =
        "Health Auto Export (iOS) JSON: a file, a folder or a zip of them (`healthetl receive` takes its pushes)"
    public static let capabilities: SourceCapabilities = [.exports]

    /// The stream every file import commits to.
    public static let fileStream = name + ":files"
    /// Records between checkpoints, at least.
    static let recordsPerCheckpoint = 5_000

    public init() {}

    public func recognize(_ input: SourceInput) -> SourceRecognition {
        HAEInputFile.recognize(input.path)
    }

    public func read(_ input: SourceInput, into handler: inout some SourceEventHandler) throws -> SourceReadReport {
        let files = try HAEInputFile.files(at: input.path)
        let catalog = try MetricCatalog.bundled()
        let stream = Self.fileStream
        try handler.receive(
            .streamStarted(
                stream: stream, now: input.readAt, isFullSnapshot: false,
                endPosition: files.reduce(0) { $0 + $1.size }))
        var feed = HAEFeed(
            handler: handler, hotSince: input.readAt.adding(seconds: -input.hotWindowSeconds),
            every: Self.recordsPerCheckpoint, stream: stream)
        var warnings: [String: Int] = [:]
        var problems: [String] = []
        var base: Int64 = 0
        for file in files {
            let reader = HAEPayloadReader(catalog: catalog)
            do {
                try file.read { chunk in
                    try reader.feed(chunk) { try feed.take($0, position: base + reader.bytesRead) }
                }
                try reader.finish { try feed.take($0, position: base + reader.bytesRead) }
            } catch let error as JSONStreamError {
                // What came before the damage is kept; the rest of this file cannot be read.
                problems.append("\(file.name): \(error)")
                warnings["unreadable_json", default: 0] += 1
            }
            warnings.merge(reader.warnings, uniquingKeysWith: +)
            base += file.size
            try feed.checkpoint(base)
        }
        handler = feed.handler
        if files.isEmpty { problems.append("\(input.path) holds no .json file") }
        return SourceReadReport(
            complete: problems.isEmpty, warnings: warnings,
            problem: problems.isEmpty ? nil : problems.joined(separator: "; "))
    }

    /// The events of one pushed request body, all in the hot lane (a push is what just happened),
    /// without a stream or checkpoint: the receiver commits them as one.
    /// - Throws: `HealthAutoExportError` when the body is not HAE's JSON; nothing of it is kept.
    public static func events(ofBody body: UnsafeRawBufferPointer, catalog: MetricCatalog) throws -> (
        events: [SourceEvent], warnings: [String: Int]
    ) {
        let reader = HAEPayloadReader(catalog: catalog)
        var events: [SourceEvent] = []
        do {
            let take = { (item: HAEItem) in events += item.events(in: .hot) }
            try reader.feed(body, emit: take)
            try reader.finish(emit: take)
        } catch let error as JSONStreamError {
            throw HealthAutoExportError(reason: error.description)
        }
        return (events, reader.warnings)
    }
}
