extension DailyRollupCalculator {
    /// Sums by source priority per time slice. A sample earns `value × won / duration`, where
    /// `won` is the time of its interval, within the day, in slices its source won. A zero-length
    /// sample earns its whole value when no better source covers or sits on its instant.
    /// - Parameter samples: the metric's samples that carry a value.
    func cumulativeRollups(of samples: [Sample], days: Set<CivilDate>?) -> [DailyRollup] {
        let sources = SourceOrdinals(of: samples, by: priority)
        return piecesByDay(of: samples, assignment: .everyDaySpanned, days: days).map { day, pieces in
            cumulativeRollup(day: day, pieces: stableOrder(pieces), of: samples, sources: sources)
        }
    }

    private func cumulativeRollup(
        day: CivilDate, pieces: [DayPiece], of samples: [Sample], sources: SourceOrdinals
    ) -> DailyRollup {
        let intervals = pieces.map {
            PrioritySweep.Interval(source: sources.ordinals[$0.sampleIndex], span: $0.span)
        }
        let sweep = PrioritySweep.shares(of: intervals, sourceCount: sources.count)
        var sum = 0.0
        var bySource: [String: Double] = [:]
        var contributors: [DayPiece] = []
        for (piece, share) in zip(pieces, sweep.shares) {
            let sample = samples[piece.sampleIndex]
            guard let value = sample.value, let fraction = Self.fraction(of: sample, earnedBy: share)
            else { continue }
            sum += value * fraction
            bySource[sample.sourceName, default: 0] += value * fraction
            contributors.append(piece)
        }
        var rollup = DailyRollup(
            metric: metric.id, day: day, sum: sum,
            count: contributors.count, sources: sortedSourceNames(contributors, of: samples),
            coverageSeconds: Double(sweep.coveredMilliseconds) / 1000)
        rollup.sumBySource = bySource
        return rollup
    }

    /// The part of its value a sample earns in one day, or nil when it won nothing there.
    private static func fraction(of sample: Sample, earnedBy share: PrioritySweep.Share) -> Double? {
        let duration = sample.end.millisecondsSinceEpoch - sample.start.millisecondsSinceEpoch
        if duration <= 0 { return share.winsInstant ? 1 : nil }
        guard share.milliseconds > 0 else { return nil }
        return Double(share.milliseconds) / Double(duration)
    }
}
