import Foundation
import HealthETLCore

/// The projection arithmetic both storage engines share: which days and samples a refresh of
/// dirty days reads, and what the core's calculators make of them. The engines only load and
/// store.
package enum ProjectionPlan {
    package static let sleepMetric = SleepNightCalculator.metric

    /// The rollups of a run of days, and for sleep the nights the run can change: what both
    /// storages compute from the samples `loadWindow` names.
    package static func project(
        _ samples: [Sample], definition: MetricDefinition, priority: SourcePriority, days: ClosedRange<Int64>
    )
        -> (rollups: [DailyRollup], nights: [SleepNight]?)
    {
        let wanted = Set(days.map { CivilDate(daysSinceEpoch: $0) })
        let rollups = DailyRollupCalculator(metric: definition, priority: priority).rollups(for: samples, days: wanted)
        guard definition.id == sleepMetric else { return (rollups, nil) }
        return (rollups, SleepNightCalculator(priority: priority).nights(for: samples))
    }

    /// A dirty day can change its own night and the next morning's.
    package static func nights(of days: ClosedRange<Int64>) -> ClosedRange<Int64> {
        days.lowerBound...(days.upperBound + 1)
    }

    /// The start times (milliseconds, half-open) of every sample that can reach into the days (any
    /// zone), and for sleep into their nights, given the longest sample of the metric.
    package static func loadWindow(days: ClosedRange<Int64>, longest: Int64) -> Range<Int64> {
        // From the day before: the first day's night began the evening before it.
        let first = DailyRollupCalculator.sampleWindow(for: CivilDate(daysSinceEpoch: days.lowerBound - 1)).lowerBound
        // The night of the last day + 1 ends by its noon.
        let last = DailyRollupCalculator.sampleWindow(for: CivilDate(daysSinceEpoch: days.upperBound + 1)).upperBound
        return (first.millisecondsSinceEpoch - longest)..<last.millisecondsSinceEpoch
    }

    /// The columns of the `samples` table that `sample(...)` is made from, in both engines' order.
    package static let sampleColumns = """
        id, start_ms, end_ms, source, source_version, device, utc_offset_s, time_zone, value, category, user_entered, flags
        """

    /// A stored sample as the calculators take it: the two metadata entries they read.
    package static func sample(
        id: ContentID, metric: String, source: String, sourceVersion: String?, device: String?, start: Int64,
        end: Int64, utcOffset: Int32?, timeZone: String?, value: Double?, category: String?, userEntered: Bool,
        flags: Int
    ) -> Sample {
        var metadata: [MetadataEntry] = []
        if let timeZone { metadata.append(MetadataEntry(key: "HKTimeZone", value: timeZone)) }
        if userEntered { metadata.append(MetadataEntry(key: "HKWasUserEntered", value: "1")) }
        return Sample(
            id: id, metric: metric, sourceName: source, sourceVersion: sourceVersion, device: device,
            start: Instant(millisecondsSinceEpoch: start), end: Instant(millisecondsSinceEpoch: end),
            utcOffsetSeconds: utcOffset, value: value, category: category, flags: SampleFlags(rawValue: flags),
            metadata: metadata)
    }

    /// Sorted days cut into runs of consecutive days.
    package static func runs(of days: [Int64]) -> [ClosedRange<Int64>] {
        var runs: [ClosedRange<Int64>] = []
        for day in days {
            if let last = runs.last, last.upperBound + 1 == day {
                runs[runs.count - 1] = last.lowerBound...day
            } else {
                runs.append(day...day)
            }
        }
        return runs
    }

    /// A stored source priority (a JSON array of names), or none when it does not read as one.
    package static func decodeSources(_ text: String?) -> [String] {
        guard let text, let sources = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return [] }
        return sources
    }
}
