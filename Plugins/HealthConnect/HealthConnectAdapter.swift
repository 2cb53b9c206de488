import HealthETLCore

/// Source adapter `health_connect`: reads what Android's Settings → Health Connect → Export
/// writes — a zip holding a copy of the phone's SQLite store — or that database itself.
///
/// The database is opened read-only as an unchanging, untrusted snapshot and checked whole before
/// any record, a table whose schema would run the file's own SQL refused unread with the reason
/// (`HealthConnectSchemaAudit`); its tables and columns are found by name, so every schema
/// version reads. Each mapped
/// column of each row becomes a raw record in the catalog's terms, series points and sleep
/// stages carry their parent's provenance, exercise sessions also become workouts with laps,
/// segments and route, and the phone's app priority goes to the projections.
///
/// Each export is a full snapshot (its stream names its date), so the pipeline's export
/// supersession turns records the previous export had and this one lacks into deletions. The
/// cursor line runs through the parts in a fixed order (`HealthConnectPart`): a resumed read
/// starts after the committed row of the part it stopped in.
public struct HealthConnectAdapter: SourceAdapter {
    public static let name = "health_connect"
    public static let summary =
        "Android Health Connect export: the zip Settings → Health Connect → Export writes, or its .db"
    public static let capabilities: SourceCapabilities = [.exports, .resumable]

    /// Records between checkpoints within a part, at least (a part's end is always one).
    static let recordsPerCheckpoint = 1_000

    public init() {}

    public func recognize(_ input: SourceInput) -> SourceRecognition {
        HealthConnectExportFile.recognize(input.path)
    }

    public func read(_ input: SourceInput, into handler: inout some SourceEventHandler) throws -> SourceReadReport {
        let file = try HealthConnectExportFile(path: input.path)
        // The copy's name goes as soon as SQLite has the file open: a killed import leaves none.
        let database = try HealthConnectDatabase(path: file.databasePath) { file.removeCopy() }
        let schema = try database.schema()
        let catalog = try MetricCatalog.bundled()
        let provenance = try HealthConnectProvenance(database: database, schema: schema)
        let plan = try HealthConnectReadPlan(database: database, schema: schema, catalog: catalog)
        let dates = [plan.newestModification, file.writtenNoEarlierThan].compactMap { $0 }
        let now = dates.max() ?? input.readAt
        let stream = "health_connect:export-" + now.description
        try handler.receive(
            .streamStarted(
                stream: stream, now: now, isFullSnapshot: true, endPosition: plan.end, positions: .rows))
        let priority = try HealthConnectPriority(
            database: database, schema: schema, provenance: provenance, catalog: catalog)
        if !priority.sourcesByMetric.isEmpty { try handler.receive(.sourcePriority(priority.sourcesByMetric)) }

        let resumeAt = input.resumePosition(of: stream)
        if resumeAt > 0 { try handler.receive(.resumed(at: resumeAt)) }
        var feed = HealthConnectFeed(
            handler: handler, hotSince: now.adding(seconds: -input.hotWindowSeconds), every: Self.recordsPerCheckpoint,
            stream: stream)
        for part in plan.parts {
            guard let after = part.resumeRow(at: resumeAt) else { continue }
            feed.begin(part)
            switch part.reader {
            case .table(let reader):
                try reader.read(database, provenance: provenance, afterRow: after) { try feed.record($1, row: $0) }
            case .children(let reader):
                try reader.read(database, provenance: provenance, afterParent: after) { try feed.record($1, row: $0) }
            case .exercise(let reader):
                try reader.read(database, provenance: provenance, afterRow: after) { try feed.workout($1, row: $0) }
            }
            try feed.finishPart()
        }
        handler = feed.handler
        var warnings = plan.warnings
        warnings.merge(feed.warnings) { $0 + $1 }
        for (table, reason) in schema.refused { warnings["refused_table:\(table) (\(reason))"] = 1 }
        return SourceReadReport(complete: true, warnings: warnings)
    }
}
