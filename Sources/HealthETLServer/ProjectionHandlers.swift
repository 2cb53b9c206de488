import HTTPTypes
import HealthETLCollectorStorage
import HealthETLCore
import HealthETLWire
import Hummingbird

/// `GET /v1/projections/daily`, `/sleep` and `/insights`: the caller's projections for a range of
/// local days, recomputed first where a batch made them stale; `/extent`: which metrics have data
/// on which days. Each range answer carries a strong ETag made from the newest change of what it
/// reads, and `If-None-Match` with that ETag is answered 304 without a body.
struct ProjectionHandlers: Sendable {
    let storage: any CollectorStorage
    let catalog: MetricCatalog
    /// Ten years of days per request at most.
    static let maximumDays: Int64 = 3660
    /// Changes when what the projections compute changes, so no client keeps an answer of older code.
    static let etagGeneration = "p1"

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

    struct InsightsResponse: Encodable {
        let from: String
        let to: String
        let days: [InsightDay]
        let insights: [Insight]
    }

    struct ExtentResponse: Encodable {
        let head: Int64
        let metrics: [WireMetricExtent]
    }

    func daily(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        guard let name = request.uri.queryParameters.get("metric"), !name.isEmpty else {
            throw APIError.badRequest(
                "the metric query parameter is required, e.g. ?metric=step_count&from=2026-01-01&to=2026-01-31")
        }
        guard let metric = catalog.metric(named: name) else {
            throw APIError(.badRequest, "unknown_metric", "the catalog has no metric named \(QuotedName.of(name))")
        }
        let (from, to) = try range(request)
        return try await conditional(request, user: user, key: .daily(metric: metric.id, days: from...to)) {
            let days = try await storage.dailyRollups(user: user, metric: metric.id, from: from, to: to)
            return DailyResponse(metric: metric.id, from: from.description, to: to.description, days: days)
        }
    }

    func sleep(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        let (from, to) = try range(request)
        return try await conditional(request, user: user, key: .sleep(nights: from...to)) {
            let nights = try await storage.sleepNights(user: user, from: from, to: to)
            return SleepResponse(from: from.description, to: to.description, nights: nights)
        }
    }

    func insights(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        let (from, to) = try range(request)
        return try await conditional(request, user: user, key: .insights(days: from...to)) {
            let calculator = InsightCalculator()
            let first = from.adding(days: -InsightCalculator.dependencyDays)
            var rollups: [DailyRollup] = []
            var nights: [SleepNight] = []
            for metric in calculator.metrics {
                if metric == SleepNightCalculator.metric {
                    nights = try await storage.sleepNights(user: user, from: first, to: to).compactMap(SleepNight.init)
                } else {
                    rollups += try await storage.dailyRollups(user: user, metric: metric, from: first, to: to)
                        .compactMap(DailyRollup.init)
                }
            }
            let days = calculator.days(rollups: rollups, nights: nights, in: from...to)
            return InsightsResponse(
                from: from.description, to: to.description, days: days, insights: calculator.insights(from: days))
        }
    }

    func extent(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        // The head first: what the extent shows is at least as new as it.
        let head = try await storage.feedHead(user: user)
        let metrics = try await storage.extent(user: user)
        return JSONResponse.make(ExtentResponse(head: head, metrics: metrics), headers: [.cacheControl: "no-store"])
    }

    /// Answers 304 when the client's ETag is the scope's current one; otherwise the body, with the
    /// ETag of the version read before it was computed (a body can only be newer than its tag).
    private func conditional(
        _ request: Request, user: String, key: ChangeKey, body: () async throws -> some Encodable
    ) async throws -> Response {
        guard let scope = FeedKeys.versionScope(of: key) else { throw CollectorError("no version for \(key)") }
        let version = try await storage.projectionVersion(user: user, metrics: scope.metrics, days: scope.days)
        let etag = ProjectionETag.make(generation: Self.etagGeneration, version: version, key: key)
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "private, no-cache"]
        if let asked = request.headers[.ifNoneMatch], ProjectionETag.matches(asked, etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json"
        return JSONResponse.make(try await body(), headers: headers)
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
}
