import HealthETLCore
import HealthETLWire
import Hummingbird

/// `GET /v1/projections/daily` and `/sleep`: the caller's projections for a range of local days,
/// recomputed first where a batch made them stale.
struct ProjectionHandlers: Sendable {
    let storage: any CollectorStorage
    let catalog: MetricCatalog
    /// Ten years of days per request at most.
    static let maximumDays: Int64 = 3660

    struct DailyResponse: Encodable {
        let metric: String
        let from: String
        let to: String
        let days: [WireDailyRollup]
    }

    struct SleepResponse: Encodable {
        let from: String
        let to: String
        let nights: [WireSleepNight]
    }

    func daily(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        guard let name = request.uri.queryParameters.get("metric"), !name.isEmpty else {
            throw APIError.badRequest(
                "the metric query parameter is required, e.g. ?metric=step_count&from=2026-01-01&to=2026-01-31")
        }
        guard let metric = catalog.metric(named: name) else {
            throw APIError(.badRequest, "unknown_metric", "the catalog has no metric named \(Self.quoted(name))")
        }
        let (from, to) = try range(request)
        let days = try await storage.dailyRollups(user: user, metric: metric.id, from: from, to: to)
        return JSONResponse.make(
            DailyResponse(metric: metric.id, from: from.description, to: to.description, days: days))
    }

    func sleep(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        let (from, to) = try range(request)
        let nights = try await storage.sleepNights(user: user, from: from, to: to)
        return JSONResponse.make(SleepResponse(from: from.description, to: to.description, nights: nights))
    }

    private func range(_ request: Request) throws -> (CivilDate, CivilDate) {
        let parameters = request.uri.queryParameters
        guard let fromText = parameters.get("from"), let from = CivilDate(text: fromText),
            let toText = parameters.get("to"), let to = CivilDate(text: toText)
        else {
            throw APIError.badRequest("from and to are required local dates, YYYY-MM-DD")
        }
        guard from <= to else { throw APIError.badRequest("from must not be after to") }
        guard to.daysSinceEpoch - from.daysSinceEpoch < Self.maximumDays else {
            throw APIError.badRequest("ask for at most \(Self.maximumDays) days at a time")
        }
        return (from, to)
    }

    /// A name from the query, shortened, for an error message.
    private static func quoted(_ text: String) -> String {
        "\"" + String(text.prefix(64)) + (text.count > 64 ? "…" : "") + "\""
    }
}
