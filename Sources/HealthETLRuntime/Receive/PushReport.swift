import Foundation
import HealthAutoExport
import HealthETLCore
import HealthETLPipeline
import HealthETLWire

/// The answer to a committed push: what was stored, what was already there, and which records
/// were refused and why (the first `listedRefusals` of them; all are counted by reason).
struct PushReport: Encodable {
    struct Refusal: Encodable {
        /// The record's place among the body's records, from 0.
        var index: Int
        var type: String
        var reason: String
        var detail: String
    }

    /// Refused records named one by one, at most.
    static let listedRefusals = 100

    var status = "stored"
    var stream: String
    var recordsRead: Int
    var stored: Int
    var duplicates: Int
    var quarantined: Int
    var quarantinedByReason: [String: Int]
    var refused: [Refusal]
    var workoutsStored: Int
    var warnings: [String: Int]

    init(_ summary: ImportSummary, stream: String, refused: [Refusal]) {
        self.stream = stream
        recordsRead = summary.recordsRead + (summary.correlationComponents.read ?? 0)
        stored = summary.accepted + summary.flagged + summary.correlationComponents.stored
        duplicates = summary.duplicates + summary.correlationComponents.alreadyStored
        quarantined = summary.quarantined + summary.correlationComponents.quarantined
        quarantinedByReason = summary.quarantinedByReason
        self.refused = refused
        workoutsStored = summary.workouts
        warnings = summary.warnings
    }

    /// The records of a push's body the normalizer refuses, in order, at most `listedRefusals`:
    /// the body is read again, one record at a time, and only as far as the last one listed.
    static func refusals(in body: PushBody, normalizer: Normalizer) throws -> [Refusal] {
        var finder = RefusalFinder(normalizer: normalizer)
        do {
            _ = try HealthAutoExportAdapter().read(SourceInput(path: body.path, hotWindowSeconds: 0), into: &finder)
        } catch is RefusalFinder.Enough {}
        return finder.refusals
    }

    /// Normalizes each record as the adapter hands it on, keeping the refused ones.
    private struct RefusalFinder: SourceEventHandler {
        struct Enough: Error {}

        let normalizer: Normalizer
        var refusals: [Refusal] = []
        var index = 0

        mutating func receive(_ event: SourceEvent) throws {
            let record: RawRecord
            switch event {
            case .record(let raw, _), .correlation(let raw, _), .correlationComponent(let raw, _): record = raw
            default: return
            }
            defer { index += 1 }
            if case .quarantined(let refused) = normalizer.normalize(record) {
                refusals.append(
                    Refusal(index: index, type: record.type, reason: refused.reason.rawValue, detail: refused.detail))
                if refusals.count == listedRefusals { throw Enough() }
            }
        }
    }

    func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }

    private enum CodingKeys: String, CodingKey {
        case status, stream, stored, duplicates, quarantined, refused, warnings
        case recordsRead = "records_read"
        case quarantinedByReason = "quarantined_by_reason"
        case workoutsStored = "workouts_stored"
    }
}
