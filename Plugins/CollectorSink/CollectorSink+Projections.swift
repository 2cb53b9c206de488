import AsyncHTTPClient
import Foundation
import HealthETLCore
import HealthETLWire

extension CollectorSink {
    public func dailyRollups(metric: String, from: CivilDate, to: CivilDate) async throws(DeliveryError)
        -> [DailyRollup]
    {
        let query = QueryEncoding.query([
            ("metric", metric), ("from", from.description), ("to", to.description),
        ])
        let body = try await get("/v1/projections/daily?" + query, subject: "daily rollups of \(metric)")
        guard let decoded = try? JSONDecoder().decode(DailyRollupsBody.self, from: Data(body)),
            case let days = decoded.days.compactMap(DailyRollup.init), days.count == decoded.days.count
        else {
            throw .retryable(
                reason: "the collector's answer for daily rollups of \(metric) is not a list of days",
                notBeforeSeconds: nil)
        }
        return days
    }

    public func sleepNights(from: CivilDate, to: CivilDate) async throws(DeliveryError) -> [SleepNight] {
        let query = QueryEncoding.query([("from", from.description), ("to", to.description)])
        let body = try await get("/v1/projections/sleep?" + query, subject: "sleep nights")
        guard let decoded = try? JSONDecoder().decode(SleepNightsBody.self, from: Data(body)),
            case let nights = decoded.nights.compactMap(SleepNight.init), nights.count == decoded.nights.count
        else {
            throw .retryable(
                reason: "the collector's answer for sleep nights is not a list of nights",
                notBeforeSeconds: nil)
        }
        return nights
    }

    private func get(_ pathAndQuery: String, subject: String) async throws(DeliveryError) -> [UInt8] {
        var request = HTTPClientRequest(url: configuration.endpoint + pathAndQuery)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        return try await exchange(request, subject: subject).body
    }
}
