extension DailyRollupCalculator {
    /// Time covered and number of samples, for categories and intervals. The union of intervals
    /// already keeps overlapping sources from doubling the time, so no priority is applied; a
    /// sample spanning midnight counts on each day it touches.
    func coverageRollups(of samples: [Sample], days: Set<CivilDate>?) -> [DailyRollup] {
        piecesByDay(of: samples, assignment: .everyDaySpanned, days: days).map { day, pieces in
            DailyRollup(
                metric: metric.id, day: day, count: pieces.count,
                sources: sortedSourceNames(pieces, of: samples),
                coverageSeconds: IntervalUnion(pieces.map(\.span)).seconds)
        }
    }
}
