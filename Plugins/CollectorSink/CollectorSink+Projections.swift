import HealthETLCore

extension CollectorSink {
    public func dailyRollups(metric: String, from: CivilDate, to: CivilDate) async throws(DeliveryError)
        -> [DailyRollup]
    {
        guard
            case .fresh(.daily(let days), _) = try await projection(
                .daily(metric: metric, days: from...to), ifNoneMatch: nil)
        else { throw Self.unexpected("daily rollups of \(metric)") }
        return days
    }

    public func sleepNights(from: CivilDate, to: CivilDate) async throws(DeliveryError) -> [SleepNight] {
        guard case .fresh(.sleep(let nights), _) = try await projection(.sleep(nights: from...to), ifNoneMatch: nil)
        else { throw Self.unexpected("sleep nights") }
        return nights
    }

    /// An answer of another kind than asked for (`projection` never gives one without an ETag sent).
    private static func unexpected(_ subject: String) -> DeliveryError {
        .retryable(reason: "the collector's answer for \(subject) is not what was asked for", notBeforeSeconds: nil)
    }
}
