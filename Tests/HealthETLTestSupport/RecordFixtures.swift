import HealthETLCore

/// Builders for records and samples as tests need them, with realistic Apple Health defaults.
public enum RecordFixtures {
    /// A raw record in Apple Health's spelling.
    public static func record(
        type: String = "HKQuantityTypeIdentifierHeartRate", value: String? = "72",
        unit: String? = "count/min", start: String = "2024-03-01 08:00:00 +0100",
        end: String? = nil, source: String = "Simon’s Apple Watch", metadata: [MetadataEntry] = []
    ) -> RawRecord {
        RawRecord(
            type: type, sourceName: source, sourceVersion: "10.3", device: nil, unit: unit,
            value: value.map(RawValue.text) ?? .absent, start: .text(start), end: .text(end ?? start),
            metadata: metadata)
    }

    /// A normalised heart-rate sample `index` minutes after 2024-03-01T07:00Z.
    public static func sample(index: Int, metric: String = "heart_rate", value: Double = 60) -> Sample {
        let start = Instant(millisecondsSinceEpoch: 1_709_276_400_000 + Int64(index) * 60_000)
        let end = start.adding(seconds: 60)
        return Sample(
            id: ContentID(
                metric: metric, source: "fixture", start: start, end: end, value: String(value),
                unit: "count/min"),
            metric: metric, sourceName: "fixture", start: start, end: end, utcOffsetSeconds: 3600,
            value: value, valueAsWritten: String(value), unitAsWritten: "count/min")
    }

    /// A fixed "now" after every fixture date: 2024-06-01T00:00:00Z.
    public static let now = Instant(secondsSinceEpoch: 1_717_200_000)
}
