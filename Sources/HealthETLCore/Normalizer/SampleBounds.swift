/// What every stored sample satisfies, checked the same way on import (the normalizer
/// quarantines the rest) and by the collector (it refuses the item), so that whatever is stored
/// locally can always be delivered, and no single sample can make the collector slice
/// thousands of days.
public enum SampleBounds {
    /// Instants from 1900-01-01T00:00Z up to, not including, 2200-01-01T00:00Z.
    public static let instants =
        Instant(millisecondsSinceEpoch: -2_208_988_800_000)..<Instant(millisecondsSinceEpoch: 7_258_118_400_000)
    /// The widest UTC offset a timestamp may carry (ISO 8601's ±18:00).
    public static let widestUTCOffsetSeconds: Int32 = 18 * 3_600
    /// Beyond any health quantity, and small enough that a day's sum stays finite and exact.
    public static let largestMagnitude = 1e12
    /// The longest sample of a metric whose catalog entry sets no `hard_max_duration_s`: a
    /// pregnancy fits, a corrupt 0001–9999 span does not.
    public static let longestSpanSeconds: Int64 = longestSpanDays * 86_400
    /// The same in days: how many local days one sample can touch, at most, give or take one.
    public static let longestSpanDays: Int64 = 400

    /// The most events one summarized count may stand for: more than a period of any length holds.
    public static let largestSummarizedCount = 1_000_000.0

    /// Whether a summarized sample of `metric` is a count of its events (HAE's `apple_stand_hour`
    /// with `qty` 7, `medication` with `qty` 2) rather than a category value: so for categories
    /// and events that roll up as counts.
    public static func summariesCount(_ metric: MetricDefinition) -> Bool {
        (metric.kind == .category || metric.kind == .interval) && metric.aggregation == .count
    }

    /// Whether `value` can be a summarized count: a whole number of events within bounds.
    public static func isSummarizedCount(_ value: Double) -> Bool {
        value.isFinite && value >= 0 && value <= largestSummarizedCount && value == value.rounded()
    }

    /// A rule a sample breaks.
    public enum Violation: String, Sendable, CaseIterable {
        /// A start or end outside `instants`.
        case dateOutOfRange = "date_out_of_range"
        /// A UTC offset wider than `widestUTCOffsetSeconds`.
        case utcOffsetOutOfRange = "utc_offset_out_of_range"
        /// Longer than the metric's longest span.
        case spanTooLong = "span_too_long"
    }

    /// The longest span a sample of `metric` may have, in seconds.
    public static func longestSpan(of metric: MetricDefinition) -> Int64 {
        metric.hardMaxDurationSeconds.map { Int64($0.rounded(.down)) } ?? longestSpanSeconds
    }

    /// The first rule broken by a sample's times (`end >= start` is checked before), for a metric
    /// whose samples may span `longestSpanSeconds` (`longestSpan(of:)`).
    public static func violation(start: Instant, end: Instant, utcOffsetSeconds: Int32?, longestSpanSeconds: Int64)
        -> Violation?
    {
        if let offset = utcOffsetSeconds, offset.magnitude > widestUTCOffsetSeconds.magnitude {
            return .utcOffsetOutOfRange
        }
        guard instants.contains(start), instants.contains(end) else { return .dateOutOfRange }
        let spanMilliseconds = end.millisecondsSinceEpoch - start.millisecondsSinceEpoch
        guard spanMilliseconds <= longestSpanSeconds * 1_000 else { return .spanTooLong }
        return nil
    }

    /// Whether a quantity's value (in any unit) is one the collector accepts.
    public static func isDeliverable(_ value: Double) -> Bool {
        value.isFinite && value.magnitude <= largestMagnitude
    }
}
