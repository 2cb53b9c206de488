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
        var count = 0
        // Per source name, found through the source's ordinal: a name is looked up once per
        // ordinal, not hashed once per sample (one name can rank as several sources).
        var names: [String] = []
        var sums: [Double] = []
        var slotOfOrdinal = [Int?](repeating: nil, count: sources.count)
        for (piece, share) in zip(pieces, sweep.shares) {
            guard let value = samples[piece.sampleIndex].value,
                let fraction = Self.fraction(
                    from: samples[piece.sampleIndex].start, to: samples[piece.sampleIndex].end, earnedBy: share)
            else { continue }
            sum += value * fraction
            count += 1
            let ordinal = sources.ordinals[piece.sampleIndex]
            let slot =
                slotOfOrdinal[ordinal] ?? Self.slot(of: samples[piece.sampleIndex].sourceName, in: &names, &sums)
            slotOfOrdinal[ordinal] = slot
            sums[slot] += value * fraction
        }
        var rollup = DailyRollup(
            metric: metric.id, day: day, sum: sum, count: count, sources: names.sorted(),
            coverageSeconds: Double(sweep.coveredMilliseconds) / 1000)
        rollup.sumBySource = Dictionary(uniqueKeysWithValues: zip(names, sums))
        return rollup
    }

    /// Where `name` is in `names` (compared as a dictionary keyed by it would), added when new.
    private static func slot(of name: String, in names: inout [String], _ sums: inout [Double]) -> Int {
        if let slot = names.firstIndex(of: name) { return slot }
        names.append(name)
        sums.append(0)
        return names.count - 1
    }

    /// The part of its value a sample earns in one day, or nil when it won nothing there.
    /// Takes the sample's start and end (which may precede its start) rather than the sample:
    /// passing a sample copied it.
    private static func fraction(from start: Instant, to end: Instant, earnedBy share: PrioritySweep.Share) -> Double? {
        let duration = end.millisecondsSinceEpoch - start.millisecondsSinceEpoch
        if duration <= 0 { return share.winsInstant ? 1 : nil }
        guard share.milliseconds > 0 else { return nil }
        return Double(share.milliseconds) / Double(duration)
    }
}
