extension DailyRollupCalculator {
    /// Statistics over every source (a measurement is not a share of a total, so there is nothing
    /// to de-duplicate), on the local day each sample starts.
    /// - Parameter samples: the metric's samples that carry a value.
    func discreteRollups(of samples: [Sample], days: Set<CivilDate>?) -> [DailyRollup] {
        piecesByDay(of: samples, assignment: .startDay, days: days).map { day, pieces in
            discreteRollup(day: day, pieces: stableOrder(pieces), of: samples)
        }
    }

    private func discreteRollup(day: CivilDate, pieces: [DayPiece], of samples: [Sample]) -> DailyRollup {
        let values = pieces.compactMap { samples[$0.sampleIndex].value }
        let latest = Self.latest(of: pieces.map(\.sampleIndex), in: samples)
        return DailyRollup(
            metric: metric.id, day: day,
            average: values.reduce(0, +) / Double(values.count), minimum: values.min(),
            maximum: values.max(), count: values.count, latest: latest.flatMap { samples[$0].value },
            sources: sortedSourceNames(pieces, of: samples),
            coverageSeconds: IntervalUnion(pieces.map(\.span)).seconds)
    }

    /// Index of the sample that ends last; ties go to the later start, then the larger id.
    private static func latest(of indices: [Int], in samples: [Sample]) -> Int? {
        indices.max {
            (samples[$0].end, samples[$0].start, samples[$0].id)
                < (samples[$1].end, samples[$1].start, samples[$1].id)
        }
    }
}
