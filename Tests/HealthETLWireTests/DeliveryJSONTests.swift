import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Testing

/// The uploaders write a batch's JSON straight from its samples; it must be the wire form's
/// canonical JSON byte for byte (the collector's digest and a resent batch depend on it).
@Suite struct DeliveryJSONTests {
    static let texts = [
        "Watch", "Anna’s \"Watch\"\\\n\t\u{1}/é", "Ä\u{1F600}", "", "<<HKDevice: 0x1>>, name:Apple Watch",
    ]

    static func sample(_ random: inout SeededGenerator) -> Sample {
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func maybe<T>(_ value: T) -> T? { random.next() % 2 == 0 ? value : nil }
        // Any millisecond from year -30000 to 30000, some at the edges of the four-digit years.
        let edges: [Int64] = [
            -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 0, -1,
        ]
        let start =
            random.next() % 4 == 0
            ? pick(edges) : Int64(bitPattern: random.next() % 1_900_000_000_000_000) - 950_000_000_000_000
        let end = start &+ Int64(random.next() % 100_000_000)
        var metadata: [MetadataEntry] = []
        if random.next() % 2 == 0 { metadata.append(MetadataEntry(key: "HKTimeZone", value: pick(texts))) }
        if random.next() % 3 == 0 {
            metadata.append(MetadataEntry(key: "HKWasUserEntered", value: pick(["1", "0", "TRUE"])))
        }
        let values: [Double] = [
            0, -0.0, 1e-7, 72, 61.25, -3.5e300, .infinity, .nan, Double(random.next() % 100_000) / 7,
        ]
        var sample = Sample(
            id: ContentID(high: random.next(), low: random.next()), metric: pick(["heart_rate", "step_count"]),
            sourceName: pick(texts), sourceVersion: maybe(pick(texts)), device: maybe(pick(texts)),
            start: Instant(millisecondsSinceEpoch: start), end: Instant(millisecondsSinceEpoch: end),
            utcOffsetSeconds: maybe(Int32(Int64(random.next() % 200_000) - 100_000)), value: maybe(pick(values)),
            category: maybe(pick(["asleep_rem", "in_bed"])), flags: SampleFlags(rawValue: Int(random.next() % 16)),
            metadata: metadata)
        if random.next() % 4 == 0 { sample.restoresDeletionAt = Instant(millisecondsSinceEpoch: end) }
        return sample
    }

    @Test func theDirectWriterWritesTheWireFormsJSON() {
        var random = SeededGenerator(seed: 41)
        for round in 0..<200 {
            let samples = (0..<(round % 7 == 0 ? 0 : 25)).map { _ in Self.sample(&random) }
            let deletions = (0..<Int(random.next() % 3)).map { index in
                Tombstone(
                    sampleID: ContentID(high: random.next(), low: 0), metric: "step_count",
                    start: Instant(millisecondsSinceEpoch: Int64(index)), reason: "deleted",
                    deletedAt: Instant(millisecondsSinceEpoch: 5))
            }
            let batch = DeliveryBatch(batchID: "b-\(round)", samples: samples, deletions: deletions)
            #expect(WireBatch.jsonBytes(of: batch) == WireBatch(batch).jsonBytes(), "round \(round)")
        }
    }
}
