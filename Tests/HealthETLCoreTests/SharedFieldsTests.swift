import Testing

@testable import HealthETLCore

/// `RawRecord` and `Sample` keep their fields in a box their copies share: they must still
/// behave as plain values — a change to one copy never shows in another, and equality and hashing
/// look at the fields, not at which box holds them.
struct SharedFieldsTests {
    static let start = Instant(millisecondsSinceEpoch: 1_709_276_400_000)
    static let end = Instant(millisecondsSinceEpoch: 1_709_276_460_000)

    static func record() -> RawRecord {
        RawRecord(
            type: "HKQuantityTypeIdentifierHeartRate", sourceName: "Simon’s Apple Watch", sourceVersion: "10.1",
            device: "<<HKDevice>, name:Apple Watch, model:Watch>", unit: "count/min", value: .text("72"),
            start: .text("2024-03-01 08:00:00 +0100"), end: .text("2024-03-01 08:01:00 +0100"),
            metadata: [MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "1")])
    }

    static func sample() -> Sample {
        Sample(
            id: ContentID(
                metric: "heart_rate", source: "Simon’s Apple Watch", start: start, end: end, value: "72",
                unit: "count/min"),
            metric: "heart_rate", sourceName: "Simon’s Apple Watch", device: "Apple Watch", start: start, end: end,
            utcOffsetSeconds: 3_600, value: 72, valueAsWritten: "72", unitAsWritten: "count/min",
            metadata: [MetadataEntry(key: "HKTimeZone", value: "Europe/Berlin")])
    }

    @Test func aChangedRecordCopyLeavesTheOriginalAlone() {
        let original = Self.record()
        var copy = original
        copy.device = nil
        copy.value = .number(80)
        copy.series = [SeriesPoint(instant: Self.start, value: 71)]
        copy.isSummary = true
        #expect(original.device == "<<HKDevice>, name:Apple Watch, model:Watch>")
        #expect(original.value == .text("72"))
        #expect(original.series.isEmpty)
        #expect(!original.isSummary)
        #expect(copy.device == nil && copy.value == .number(80) && copy.series.count == 1 && copy.isSummary)
        #expect(copy != original)
        // The other fields travel with the change.
        #expect(copy.type == original.type && copy.start == original.start && copy.metadata == original.metadata)
    }

    @Test func aChangedSampleCopyLeavesTheOriginalAlone() {
        let original = Self.sample()
        var copy = original
        copy.flags.insert(.futureDated)
        copy.restoresDeletionAt = Self.end
        copy.metadata.append(MetadataEntry(key: "HKWasUserEntered", value: "1"))
        #expect(original.flags.isEmpty)
        #expect(original.restoresDeletionAt == nil)
        #expect(original.metadata.count == 1)
        #expect(copy.flags == [.futureDated] && copy.restoresDeletionAt == Self.end && copy.metadata.count == 2)
        #expect(copy != original)
        #expect(copy.id == original.id && copy.value == original.value && copy.sourceName == original.sourceName)
    }

    @Test func equalFieldsInTwoBoxesAreEqualAndHashAlike() {
        // Built twice: two boxes, the same fields.
        #expect(Self.record() == Self.record())
        #expect(Self.record().hashValue == Self.record().hashValue)
        #expect(Self.sample() == Self.sample())
        #expect(Self.sample().hashValue == Self.sample().hashValue)
        #expect(Set([Self.sample(), Self.sample()]).count == 1)

        // Changed back to what it was: equal again, though its box is a new one.
        var record = Self.record()
        record.unit = "count/s"
        #expect(record != Self.record())
        record.unit = "count/min"
        #expect(record == Self.record())
        #expect(record.hashValue == Self.record().hashValue)

        // One field apart is enough to differ: the last one declared, too.
        var restored = Self.sample()
        restored.restoresDeletionAt = Self.start
        #expect(restored != Self.sample())
    }

    @Test func aPrintedValueShowsItsFieldsNotItsBox() {
        let printed = String(describing: Self.sample())
        #expect(printed.hasPrefix("Sample(id: "))
        #expect(printed.contains("sourceName: \"Simon’s Apple Watch\""))
        #expect(String(describing: Self.record()).contains("type: \"HKQuantityTypeIdentifierHeartRate\""))
    }
}
