import HealthETLCore
import HealthETLTestSupport

/// The projection suites live in this namespace, so `swift test --filter Projection` runs them all.
enum ProjectionTests {}

/// Samples and instants for the projection tests, written as wall-clock UTC text so each fixture's
/// arithmetic can be checked by eye.
enum ProjectionFixtures {
    static let watch = "Anna’s Apple Watch"
    static let phone = "Anna’s iPhone"
    static let ring = "Oura"

    static let steps = MetricDefinition(id: "step_count", name: "Steps", kind: .cumulative, aggregation: .sum)
    static let heartRate = MetricDefinition(
        id: "heart_rate", name: "Heart rate", kind: .discrete, aggregation: .statistics)
    static let restingHeartRate = MetricDefinition(
        id: "resting_heart_rate", name: "Resting heart rate", kind: .discrete, aggregation: .latest)
    static let mindful = MetricDefinition(
        id: "mindful_session", name: "Mindful session", kind: .interval, aggregation: .duration)

    /// `"2024-03-01 08:00"` (UTC, optionally with `:ss.SSS`) as an instant.
    static func utc(_ text: String) -> Instant {
        let parts = text.split(whereSeparator: { "- :.".contains($0) }).map { Int64($0)! }
        let date = CivilDate(year: Int(parts[0]), month: Int(parts[1]), day: Int(parts[2]))!
        let seconds = parts[3] * 3600 + parts[4] * 60 + (parts.count > 5 ? parts[5] : 0)
        let milliseconds = parts.count > 6 ? parts[6] : 0
        return Instant(
            millisecondsSinceEpoch: date.daysSinceEpoch * 86_400_000 + seconds * 1000 + milliseconds)
    }

    static func day(_ year: Int, _ month: Int, _ day: Int) -> CivilDate {
        CivilDate(year: year, month: month, day: day)!
    }

    /// A sample from `start` to `end` (UTC text); the id hashes every field that varies here.
    static func sample(
        _ metric: String = "step_count", source: String, device: String? = nil, from start: String,
        to end: String, value: Double? = nil, category: String? = nil, utcOffsetHours: Int32? = nil,
        timeZone: String? = nil, userEntered: Bool = false
    ) -> Sample {
        var metadata: [MetadataEntry] = []
        if let timeZone { metadata.append(MetadataEntry(key: "HKTimeZone", value: timeZone)) }
        if userEntered { metadata.append(MetadataEntry(key: "HKWasUserEntered", value: "1")) }
        let startInstant = utc(start)
        let endInstant = utc(end)
        let written = value.map { String($0) } ?? category
        return Sample(
            id: ContentID(
                metric: metric, source: source, start: startInstant, end: endInstant, value: written,
                unit: nil),
            metric: metric, sourceName: source, device: device, start: startInstant, end: endInstant,
            utcOffsetSeconds: utcOffsetHours.map { $0 * 3600 }, value: value, category: category,
            valueAsWritten: written, metadata: metadata)
    }

    static func sleep(
        _ category: String, source: String = watch, from start: String, to end: String,
        utcOffsetHours: Int32? = nil
    ) -> Sample {
        sample(
            "sleep_analysis", source: source, from: start, to: end, category: category,
            utcOffsetHours: utcOffsetHours)
    }

    /// The same samples in an order drawn from `seed`.
    static func shuffled(_ samples: [Sample], seed: UInt64) -> [Sample] {
        var generator = SeededGenerator(seed: seed)
        return samples.shuffled(using: &generator)
    }
}
