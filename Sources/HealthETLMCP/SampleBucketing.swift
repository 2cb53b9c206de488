import HealthETLCore

/// Samples gathered into local hours, days or weeks (Monday to Sunday), per source: the model
/// sees each source's figures side by side, never a sum across sources that would count one
/// step twice.
struct SampleBucketing {
    enum Width: String, CaseIterable {
        case hour, day, week

        var milliseconds: Int64 {
            switch self {
            case .hour: 3_600_000
            case .day: 86_400_000
            case .week: 7 * 86_400_000
            }
        }
    }

    struct Bucket: Encodable {
        /// The bucket's local start: `2026-03-02T14:00` for an hour, the day (a week's Monday) else.
        let start: String
        let source: String
        let count: Int
        let sum: Double?
        let avg: Double?
        let min: Double?
        let max: Double?
    }

    private struct Figures {
        var count = 0
        var valued = 0
        var sum = 0.0
        var minimum = Double.infinity
        var maximum = -Double.infinity
    }

    let width: Width
    private var figures: [BucketKey: Figures] = [:]

    private struct BucketKey: Hashable {
        let index: Int64
        let source: String
    }

    init(width: Width) {
        self.width = width
    }

    /// Adds a sample at its local start (the start at its offset, UTC without one).
    mutating func add(_ sample: Sample, localStart: Int64) {
        let index: Int64
        switch width {
        case .hour, .day: index = localStart.floorDivided(by: width.milliseconds).quotient
        case .week:
            // 1970-01-01 was a Thursday: day + 3 counts days since a Monday.
            let day = localStart.floorDivided(by: 86_400_000).quotient
            index = day - (day + 3).floorDivided(by: 7).remainder
        }
        var bucket = figures[BucketKey(index: index, source: sample.sourceName), default: Figures()]
        bucket.count += 1
        if let value = sample.value, value.isFinite {
            bucket.valued += 1
            bucket.sum += value
            bucket.minimum = Swift.min(bucket.minimum, value)
            bucket.maximum = Swift.max(bucket.maximum, value)
        }
        figures[BucketKey(index: index, source: sample.sourceName)] = bucket
    }

    var count: Int { figures.count }

    /// The buckets by start, then source. `cumulative` metrics report sums, the others means.
    func buckets(cumulative: Bool) -> [Bucket] {
        figures.sorted { ($0.key.index, $0.key.source) < ($1.key.index, $1.key.source) }.map { key, figures in
            let valued = figures.valued > 0
            return Bucket(
                start: label(key.index), source: key.source, count: figures.count,
                sum: valued && cumulative ? figures.sum : nil,
                avg: valued && !cumulative ? figures.sum / Double(figures.valued) : nil,
                min: valued ? figures.minimum : nil, max: valued ? figures.maximum : nil)
        }
    }

    private func label(_ index: Int64) -> String {
        switch width {
        case .hour:
            let day = index.floorDivided(by: 24)
            let hour = day.remainder < 10 ? "0\(day.remainder)" : "\(day.remainder)"
            return "\(CivilDate(daysSinceEpoch: day.quotient))T\(hour):00"
        case .day: return CivilDate(daysSinceEpoch: index).description
        case .week: return CivilDate(daysSinceEpoch: index).description
        }
    }
}
