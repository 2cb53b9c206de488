import Foundation
import HealthETLCore
import HealthETLPipeline

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
        recordsRead = summary.recordsRead + summary.correlationComponents.read
        stored = summary.accepted + summary.flagged + summary.correlationComponents.stored
        duplicates = summary.duplicates + summary.correlationComponents.alreadyStored
        quarantined = summary.quarantined + summary.correlationComponents.quarantined
        quarantinedByReason = summary.quarantinedByReason
        self.refused = refused
        workoutsStored = summary.workouts
        warnings = summary.warnings
    }

    /// The records of `events` the normalizer refuses, in order, at most `listedRefusals`.
    static func refusals(of events: [SourceEvent], normalizer: Normalizer) -> [Refusal] {
        var refusals: [Refusal] = []
        var index = 0
        for event in events {
            let record: RawRecord
            switch event {
            case .record(let raw, _), .correlation(let raw, _), .correlationComponent(let raw, _): record = raw
            default: continue
            }
            defer { index += 1 }
            guard refusals.count < listedRefusals else { continue }
            if case .quarantined(let refused) = normalizer.normalize(record) {
                refusals.append(
                    Refusal(index: index, type: record.type, reason: refused.reason.rawValue, detail: refused.detail))
            }
        }
        return refusals
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
