import HealthETLCore
import HealthETLSQLite

/// A projection key whose rollup must be recomputed: a metric (interned id) on a local day
/// (days since 1970-01-01). Integers only, so marking costs no string hashing per sample.
struct DirtyKey: Hashable {
    let metric: Int64
    let day: Int64

    /// The longest span one sample may mark: no sample spans longer (`SampleBounds`).
    static let maximumDays = SampleBounds.longestSpanDays

    /// Inserts the key of every local day the interval touches, using the recorded offset (UTC
    /// when there is none).
    static func mark(
        metric: Int64, start: Instant, end: Instant, utcOffsetSeconds: Int32?, into keys: inout DirtyKeySet
    ) {
        let offset = Int64(utcOffsetSeconds ?? 0) * 1000
        let first = (start.millisecondsSinceEpoch + offset).floorDivided(by: 86_400_000).quotient
        // An interval ending exactly at midnight does not touch the next day.
        let lastInstant = max(start.millisecondsSinceEpoch, end.millisecondsSinceEpoch - 1)
        let last = min((lastInstant + offset).floorDivided(by: 86_400_000).quotient, first + maximumDays - 1)
        // Samples arrive grouped by metric and time: skip the set when the key repeats.
        if first == last, keys.lastMarked == DirtyKey(metric: metric, day: first) { return }
        for day in first...last { keys.insert(DirtyKey(metric: metric, day: day)) }
        keys.lastMarked = DirtyKey(metric: metric, day: last)
    }
}

/// The dirty keys of one commit, remembering the last one marked.
struct DirtyKeySet: Sequence {
    private var keys = Set<DirtyKey>()
    var lastMarked: DirtyKey?

    mutating func insert(_ key: DirtyKey) {
        keys.insert(key)
    }

    func makeIterator() -> Set<DirtyKey>.Iterator {
        keys.makeIterator()
    }
}
