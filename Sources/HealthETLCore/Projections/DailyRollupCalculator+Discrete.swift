extension DailyRollupCalculator {
    /// Statistics over every source (a measurement is not a share of a total, so there is nothing
    /// to de-duplicate), on the local day each sample starts.
    func discreteRollups(of samples: [Sample], days: Set<CivilDate>?) -> [DailyRollup] {
        let valued = samples.filter { $0.value != nil }
        return piecesByDay(of: valued, assignment: .startDay, days: days).map { day, pieces in
            discreteRollup(day: day, pieces: stableOrder(pieces, of: valued), of: valued)
        }
    }

    private func discreteRollup(day: CivilDate, pieces: [DayPiece], of samples: [Sample]) -> DailyRollup {
        let daySamples = pieces.map { samples[$0.sampleIndex] }
        let values = daySamples.compactMap(\.value)
        return DailyRollup(
            metric: metric.id, day: day, aggregation: metric.aggregation,
            average: values.reduce(0, +) / Double(values.count), minimum: values.min(),
            maximum: values.max(), count: values.count, latest: Self.latest(of: daySamples)?.value,
            sources: sortedSourceNames(daySamples),
            coverageSeconds: IntervalUnion(pieces.map(\.span)).seconds)
    }

    /// The sample that ends last; ties go to the later start, then the larger id.
    static func latest(of samples: [Sample]) -> Sample? {
        samples.max { ($0.end, $0.start, $0.id) < ($1.end, $1.start, $1.id) }
    }
}
