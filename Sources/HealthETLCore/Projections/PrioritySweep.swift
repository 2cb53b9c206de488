/// Shares one local day's time between competing sources: in each elementary slice (between two
/// consecutive interval boundaries) only the best source present counts.
///
/// A sweep over the sorted boundaries keeps, per source, the running total of time it has won;
/// an interval's share is that total at its end minus the total at its start. Every interval of
/// the winning source gets the whole slice (they are that source's own data), so the cost is
/// O(n log n) however densely the intervals overlap.
struct PrioritySweep: Sendable {
    /// An interval of one source; lower source ordinals win.
    struct Interval: Sendable {
        var source: Int
        var span: Range<Int64>
    }

    /// What an interval won.
    struct Share: Sendable, Equatable {
        /// Milliseconds of the interval in slices its source won.
        var milliseconds: Int64 = 0
        /// For a zero-length interval: whether its source is the best one present at its instant.
        var winsInstant = false
    }

    private enum Boundary {
        case start, end, instant
    }

    private struct Event {
        var time: Int64
        var boundary: Boundary
        var interval: Int
    }

    private let intervals: [Interval]
    private var shares: [Share]
    private var wonBySource: [Int64]
    private var activeBySource: [Int]
    private var present = SourceHeap()
    private var wonAtStart: [Int64]
    /// Milliseconds in which at least one source was present.
    private(set) var coveredMilliseconds: Int64 = 0

    /// - Parameter sourceCount: one more than the largest source ordinal.
    init(_ intervals: [Interval], sourceCount: Int) {
        self.intervals = intervals
        shares = Array(repeating: Share(), count: intervals.count)
        wonAtStart = Array(repeating: 0, count: intervals.count)
        wonBySource = Array(repeating: 0, count: sourceCount)
        activeBySource = Array(repeating: 0, count: sourceCount)
    }

    /// The share of each interval, in the order given.
    static func shares(of intervals: [Interval], sourceCount: Int) -> (
        shares: [Share], coveredMilliseconds: Int64
    ) {
        var sweep = PrioritySweep(intervals, sourceCount: sourceCount)
        sweep.run()
        return (sweep.shares, sweep.coveredMilliseconds)
    }

    private mutating func run() {
        let events = sortedEvents()
        var previousTime: Int64?
        var index = 0
        while index < events.count {
            let time = events[index].time
            if let previousTime { creditSlice(lasting: time - previousTime) }
            var instants: [Int] = []
            while index < events.count, events[index].time == time {
                let event = events[index]
                switch event.boundary {
                case .end: close(event.interval)
                case .start: open(event.interval)
                case .instant: instants.append(event.interval)
                }
                index += 1
            }
            // After the intervals starting or ending here: a half-open interval that ends at an
            // instant does not cover it, one that starts there does.
            judgeInstants(instants)
            previousTime = time
        }
    }

    private func sortedEvents() -> [Event] {
        var events: [Event] = []
        events.reserveCapacity(intervals.count * 2)
        for (index, interval) in intervals.enumerated() {
            if interval.span.isEmpty {
                events.append(Event(time: interval.span.lowerBound, boundary: .instant, interval: index))
            } else {
                events.append(Event(time: interval.span.lowerBound, boundary: .start, interval: index))
                events.append(Event(time: interval.span.upperBound, boundary: .end, interval: index))
            }
        }
        return events.sorted { $0.time < $1.time }
    }

    private mutating func creditSlice(lasting milliseconds: Int64) {
        guard let winner = bestPresentSource() else { return }
        wonBySource[winner] += milliseconds
        coveredMilliseconds += milliseconds
    }

    private mutating func open(_ interval: Int) {
        let source = intervals[interval].source
        wonAtStart[interval] = wonBySource[source]
        activeBySource[source] += 1
        if activeBySource[source] == 1 { present.insert(source) }
    }

    private mutating func close(_ interval: Int) {
        let source = intervals[interval].source
        shares[interval].milliseconds = wonBySource[source] - wonAtStart[interval]
        activeBySource[source] -= 1
    }

    /// A zero-length interval counts when no better source covers its instant or sits on it.
    private mutating func judgeInstants(_ instants: [Int]) {
        let sources = instants.map { intervals[$0].source }
        guard let bestInstantSource = sources.min() else { return }
        let winner = min(bestInstantSource, bestPresentSource() ?? Int.max)
        for (interval, source) in zip(instants, sources) {
            shares[interval].winsInstant = source == winner
        }
    }

    private mutating func bestPresentSource() -> Int? {
        while let source = present.minimum, activeBySource[source] == 0 {
            present.removeMinimum()
        }
        return present.minimum
    }
}
