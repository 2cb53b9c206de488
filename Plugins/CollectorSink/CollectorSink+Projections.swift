import AsyncHTTPClient
import Foundation
import HealthETLCore

extension CollectorSink {
    public func dailyRollups(metric: String, from: CivilDate, to: CivilDate) async throws(DeliveryError)
        -> [WireDailyRollup]
    {
        let query = QueryEncoding.query([
            ("metric", metric), ("from", from.description), ("to", to.description),
        ])
        let body = try await get("/v1/projections/daily?" + query, subject: "daily rollups of \(metric)")
        guard let decoded = try? JSONDecoder().decode(DailyRollupsBody.self, from: Data(body)) else {
            throw .retryable(
                reason: "the collector's answer for daily rollups of \(metric) is not a list of days",
                notBeforeSeconds: nil)
        }
        return decoded.days
    }

    public func sleepNights(from: CivilDate, to: CivilDate) async throws(DeliveryError) -> [WireSleepNight] {
        let query = QueryEncoding.query([("from", from.description), ("to", to.description)])
        let body = try await get("/v1/projections/sleep?" + query, subject: "sleep nights")
        guard let decoded = try? JSONDecoder().decode(SleepNightsBody.self, from: Data(body)) else {
            throw .retryable(
                reason: "the collector's answer for sleep nights is not a list of nights",
                notBeforeSeconds: nil)
        }
        return decoded.nights
    }

    private func get(_ pathAndQuery: String, subject: String) async throws(DeliveryError) -> [UInt8] {
        var request = HTTPClientRequest(url: configuration.endpoint + pathAndQuery)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        return try await exchange(request, subject: subject).body
    }
}
