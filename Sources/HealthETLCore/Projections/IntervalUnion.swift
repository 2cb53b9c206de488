/// The union of time intervals as sorted, disjoint, half-open millisecond ranges.
///
/// Coverage and sleep totals are lengths of unions, so overlapping samples (two sources, or one
/// source writing the same stretch twice) are never counted twice.
struct IntervalUnion: Equatable, Sendable {
    private(set) var ranges: [Range<Int64>]

    /// Merges intervals given in any order; empty ones are dropped. O(n log n).
    init(_ intervals: some Sequence<Range<Int64>>) {
        var merged: [Range<Int64>] = []
        for interval in intervals.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, interval.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, interval.upperBound)
            } else {
                merged.append(interval)
            }
        }
        ranges = merged
    }

    /// Total length in milliseconds.
    var milliseconds: Int64 {
        ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
    }

    var seconds: Double { Double(milliseconds) / 1000 }

    /// Length of the time covered by both unions, in milliseconds. O(n + m).
    func overlapMilliseconds(with other: IntervalUnion) -> Int64 {
        var total: Int64 = 0
        var mine = 0
        var theirs = 0
        while mine < ranges.count, theirs < other.ranges.count {
            let a = ranges[mine]
            let b = other.ranges[theirs]
            total += max(0, min(a.upperBound, b.upperBound) - max(a.lowerBound, b.lowerBound))
            if a.upperBound < b.upperBound { mine += 1 } else { theirs += 1 }
        }
        return total
    }
}
