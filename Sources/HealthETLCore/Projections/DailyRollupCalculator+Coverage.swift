extension DailyRollupCalculator {
    /// Time covered and number of samples, for categories and intervals. The union of intervals
    /// already keeps overlapping sources from doubling the time, so no priority is applied; a
    /// sample spanning midnight counts on each day it touches.
    ///
    /// A summarized count (a source's total of events for a period, such as Health Auto Export's
    /// `apple_stand_hour` with `qty` 7) ranks below the events themselves, as every summary does: it
    /// gives the day's count only where no event of that day was stored one by one, and then only
    /// the best-ranked summarizing source's, on the day its period starts. It covers no time.
    func coverageRollups(of samples: [Sample], days: Set<CivilDate>?) -> [DailyRollup] {
        piecesByDay(of: samples, assignment: .everyDaySpanned, days: days).map { day, pieces in
            let events = pieces.filter { !Self.isSummarizedCount(samples[$0.sampleIndex]) }
            guard events.isEmpty else {
                return DailyRollup(
                    metric: metric.id, day: day, count: events.count,
                    sources: sortedSourceNames(events, of: samples),
                    coverageSeconds: IntervalUnion(events.map(\.span)).seconds)
            }
            let summaries = bestSummaries(pieces, of: samples)
            let total = summaries.reduce(0.0) { $0 + (samples[$1.sampleIndex].value ?? 0) }
            // Counts arrive within `Normalizer`'s bounds, but a collector's client may send anything.
            let count = total.isFinite ? Int(min(max(total, 0), 1e15).rounded()) : 0
            return DailyRollup(
                metric: metric.id, day: day, count: count,
                sources: sortedSourceNames(summaries, of: samples), coverageSeconds: 0)
        }
    }

    /// A summary whose value is the number of events it stands for.
    static func isSummarizedCount(_ sample: Sample) -> Bool {
        sample.flags.contains(.summarized) && sample.value != nil
    }

    /// The summarized counts of the best-ranked source among `pieces`, each on its first day only.
    private func bestSummaries(_ pieces: [DayPiece], of samples: [Sample]) -> [DayPiece] {
        let first = pieces.filter { $0.span.lowerBound == samples[$0.sampleIndex].start.millisecondsSinceEpoch }
        guard let best = first.map({ priority.rank(of: samples[$0.sampleIndex]) }).min() else { return [] }
        return first.filter { priority.rank(of: samples[$0.sampleIndex]) == best }
    }
}
