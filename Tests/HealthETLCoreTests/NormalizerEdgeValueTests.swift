import Foundation
import HealthETLTestSupport
import Testing

@testable import HealthETLCore

/// Records whose times lie at the ends of `Int64` (what a corrupt or hostile Health Connect row
/// holds) are quarantined with a reason, and their raw form still reads: nothing traps.
struct NormalizerEdgeValueTests {
    let catalog: MetricCatalog

    init() throws {
        catalog = try MetricCatalog(json: Data(NormalizerTests.catalogJSON.utf8), file: "normalizer-test.json")
    }

    func record(start: Int64, _ startOffset: Int32?, end: Int64, _ endOffset: Int32?) -> RawRecord {
        RawRecord(
            type: NormalizerTests.heartRate, sourceName: "Phone", unit: "count/min", value: .number(72),
            start: .timestamp(
                Timestamp(instant: Instant(millisecondsSinceEpoch: start), utcOffsetSeconds: startOffset)),
            end: .timestamp(Timestamp(instant: Instant(millisecondsSinceEpoch: end), utcOffsetSeconds: endOffset)))
    }

    func quarantined(_ raw: RawRecord, now: Instant = RecordFixtures.now) -> QuarantinedRecord? {
        guard case .quarantined(let record) = Normalizer(catalog: catalog, now: now).normalize(raw) else {
            return nil
        }
        return record
    }

    @Test func endAtTheStartOfTheLineAfterAStartAtItsEnd() throws {
        let record = try #require(quarantined(record(start: .max, 0, end: .min, 0)))
        #expect(record.reason == .endBeforeStart)
        // 2^64 − 1 ms: the message's figure, not an overflow
        #expect(record.detail == "ends 1.844674407370955e+16 s before it starts")
        #expect(record.raw.rawJSON.contains("292278994-08-17T07:12:55.807Z"))
        #expect(record.raw.rawJSON.contains("-292275055-05-16T16:47:04.192Z"))
    }

    @Test(
        arguments: [
            (Int64.max, Int32(3_600)), (Int64.max, Int32(-3_600)), (Int64.min, Int32(3_600)),
            (Int64.min, Int32(-3_600)),
            (Int64.max, Int32(0)), (Int64.min, Int32(0)),
        ] as [(Int64, Int32)])
    func timesAtTheEndsWithAnOffset(time: Int64, offset: Int32) throws {
        let record = try #require(quarantined(record(start: time, offset, end: time, offset)))
        #expect(record.reason == .dateOutOfRange)
        #expect(!record.raw.rawJSON.isEmpty)
    }

    @Test(arguments: [Int32.max, Int32.min])
    func offsetsAtTheEndsOfInt32(offset: Int32) throws {
        let record = try #require(quarantined(record(start: .max, offset, end: .max, offset)))
        #expect(record.reason == .utcOffsetOutOfRange)
        #expect(!record.raw.rawJSON.isEmpty)
    }

    /// "Now" from an export's newest modification time may be anything: the future-dated check
    /// against it holds at the end of the line.
    @Test(arguments: [Int64.max, Int64.min])
    func nowAtTheEnds(now: Int64) {
        let sample = record(start: 1_709_276_400_000, 3_600, end: 1_709_276_460_000, 3_600)
        let outcome = Normalizer(catalog: catalog, now: Instant(millisecondsSinceEpoch: now)).normalize(sample)
        switch outcome {
        case .accepted(let accepted): #expect(now == .max && accepted.flags.isEmpty)
        case .flagged(let flagged): #expect(now == .min && flagged.flags == .futureDated)
        case .quarantined(let record): Issue.record("quarantined: \(record.detail)")
        }
    }
}
