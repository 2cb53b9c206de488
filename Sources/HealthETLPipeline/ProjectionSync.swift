import HealthETLCore
import HealthETLStore

/// After uploads, fetches the projections of the dirty keys from the sink into the local
/// tables, pruning what the sink no longer has in those ranges. Keys stay dirty (stale) while
/// batches are undelivered, since the sink cannot have their data yet.
public final class ProjectionSync {
    let store: any ProjectionLedger & UploadQueueLedger
    let sink: any SampleSink
    let clock: Clock

    public init(store: any ProjectionLedger & UploadQueueLedger, sink: any SampleSink, clock: Clock = .system) {
        self.store = store
        self.sink = sink
        self.clock = clock
    }

    public struct Report: Sendable, Codable, Equatable {
        public var metrics = 0
        public var days = 0
        public var nights = 0
        /// Why nothing (or not everything) was refreshed.
        public var notRefreshed: String?

        private enum CodingKeys: String, CodingKey {
            case metrics, days, nights
            case notRefreshed = "not_refreshed"
        }
    }

    public func refresh() async throws -> Report {
        var report = Report()
        guard type(of: sink).capabilities.contains(.projections) else {
            report.notRefreshed = "the sink serves no projections; use `healthetl projections --local`"
            return report
        }
        let counts = try store.uploadCounts()
        let undelivered = (counts[.pending] ?? 0) + (counts[.failed] ?? 0) + (counts[.inFlight] ?? 0)
        guard undelivered == 0 else {
            report.notRefreshed = "\(undelivered) batches are not delivered yet; their days stay stale"
            return report
        }
        let started = clock.now()
        let (keys, _) = try store.dirtyProjectionKeys()
        let sorted = keys.sorted(by: { $0.key < $1.key })
        report.metrics = sorted.count
        let requests = sorted.flatMap { metric, days in Self.ranges(of: days).map { Request(metric: metric, days: $0) }
        }
        let sink = sink
        try await OrderedRequests.run(count: requests.count, inFlight: Self.requestsInFlight) { index in
            await requests[index].answer(from: sink)
        } receive: { index, result in
            let request = requests[index]
            switch result {
            case .success(let answer):
                try store.replaceDailyProjections(
                    metric: request.metric, days: request.days, with: answer.rollups, origin: "collector",
                    markedBefore: started)
                report.days += answer.rollups.count
                if let nights = answer.nights {
                    try store.replaceSleepProjections(nights: request.nights, with: nights, origin: "collector")
                    report.nights += nights.count
                }
            case .failure(let error):
                // The keys stay dirty: the next run tries again.
                report.notRefreshed = "the collector did not answer for \(request.metric): \(error)"
            }
        }
        return report
    }

    /// Ranges asked for at once (`OrderedRequests`): the sink recomputes one while this side
    /// stores another.
    static let requestsInFlight = 4

    /// The days of one metric asked for in one request.
    private struct Request: Sendable {
        let metric: String
        let days: ClosedRange<CivilDate>

        /// The sleep nights that end on these days or the next (sleep only).
        var nights: ClosedRange<CivilDate> { days.lowerBound...days.upperBound.adding(days: 1) }

        func answer(from sink: any SampleSink) async -> Result<Answer, DeliveryError> {
            do throws(DeliveryError) {
                let rollups = try await sink.dailyRollups(metric: metric, from: days.lowerBound, to: days.upperBound)
                guard metric == SleepNightCalculator.metric else {
                    return .success(Answer(rollups: rollups, nights: nil))
                }
                let nights = try await sink.sleepNights(from: self.nights.lowerBound, to: self.nights.upperBound)
                return .success(Answer(rollups: rollups, nights: nights))
            } catch {
                return .failure(error)
            }
        }
    }

    /// What the sink answered for one request.
    private struct Answer: Sendable {
        let rollups: [DailyRollup]
        let nights: [SleepNight]?
    }

    /// Clean days a range may span between dirty ones. Each range is a request, and the collector
    /// refreshes the metric for it: a weekly weighing made one request a week of history, where
    /// the sink's answer for the days between (already fresh) costs little more than none.
    static let bridgedDays: Int64 = 31

    /// Days grouped into ranges, each widened by a day on both sides (the collector may read a
    /// sample's local day in another zone than its recorded offset), joined across gaps of up to
    /// `bridgedDays`, at most ~10 years each.
    static func ranges(of days: [CivilDate]) -> [ClosedRange<CivilDate>] {
        var ranges: [ClosedRange<CivilDate>] = []
        for day in days.sorted() {
            let widened = day.adding(days: -1)...day.adding(days: 1)
            if let last = ranges.last,
                widened.lowerBound.daysSinceEpoch <= last.upperBound.daysSinceEpoch + 1 + Self.bridgedDays,
                widened.upperBound.daysSinceEpoch - last.lowerBound.daysSinceEpoch < 3_650
            {
                ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, widened.upperBound)
            } else {
                ranges.append(widened)
            }
        }
        return ranges
    }
}
