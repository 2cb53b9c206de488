import AsyncHTTPClient
import Foundation
import HealthETLCore
import HealthETLWire
import NIOCore

/// The change feed and conditional projection pulls (`.changeFeed`).
extension CollectorSink {
    /// `410 Gone`'s body: the feed's head to follow from after a rebuild.
    private struct GoneBody: Decodable { let head: Int64 }

    private struct InsightsBody: Decodable { let days: [InsightDay] }

    private struct ExtentBody: Decodable {
        let head: Int64
        let metrics: [WireMetricExtent]
    }

    public func changes(since: Int64, limit: Int) async throws(DeliveryError) -> FeedRead {
        var request = HTTPClientRequest(
            url: configuration.endpoint + "/v1/changes?"
                + QueryEncoding.query([("since", String(since)), ("limit", String(limit))]))
        request.headers.add(name: "Accept", value: "application/json")
        let answer = try await exchange(request, subject: "the change feed", accepting: [410])
        if answer.status == 410 {
            return .gone(head: try decode(GoneBody.self, answer.body, subject: "the change feed's 410").head)
        }
        return .page(try decode(FeedPage.self, answer.body, subject: "the change feed"))
    }

    public func changeStream(since: Int64) -> AsyncThrowingStream<FeedEvent, any Error> {
        var unsigned = HTTPClientRequest(url: configuration.endpoint + "/v1/changes/stream")
        unsigned.headers.add(name: "Accept", value: "text/event-stream")
        unsigned.headers.add(name: "Last-Event-ID", value: String(since))
        let request = authorized(unsigned)
        let client = client
        let timeout = configuration.requestTimeout
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let response = try await client.execute(request, timeout: .duration(timeout))
                    guard response.status == .ok else {
                        let body = try? await response.body.collect(upTo: Self.maximumErrorBytes)
                        throw ResponseClassifier.classify(
                            status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After"),
                            location: nil, body: body.map { Array($0.readableBytesView) } ?? [], now: clock.now(),
                            subject: "the change stream")
                    }
                    var parser = ServerSentEvents()
                    for try await buffer in response.body {
                        let events: [ServerSentEvents.Event]
                        do throws(ServerSentEvents.Failure) {
                            events = try parser.consume(buffer.readableBytesView)
                        } catch {
                            // Dropped (the connection closes with this task) and followed again.
                            throw DeliveryError.retryable(
                                reason: error == .lineTooLong
                                    ? "the change stream sent a line of more than \(ServerSentEvents.maximumLineBytes) bytes"
                                    : "the change stream sent an event of more than \(ServerSentEvents.maximumEventBytes) bytes",
                                notBeforeSeconds: nil)
                        }
                        for event in events {
                            switch event.name {
                            case "change":
                                continuation.yield(
                                    .change(try JSONDecoder().decode(FeedChange.self, from: Data(event.data.utf8))))
                            case "resync":
                                continuation.yield(
                                    .resync(
                                        head: try JSONDecoder().decode(GoneBody.self, from: Data(event.data.utf8)).head)
                                )
                            default: break
                            }
                        }
                    }
                    throw DeliveryError.retryable(
                        reason: "the collector closed the change stream", notBeforeSeconds: nil)
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func projection(_ scope: ChangeKey, ifNoneMatch etag: String?) async throws(DeliveryError)
        -> ProjectionAnswer
    {
        let path: String
        let subject: String
        switch scope {
        case .daily(let metric, let days):
            path =
                "/v1/projections/daily?"
                + QueryEncoding.query([
                    ("metric", metric), ("from", days.lowerBound.description), ("to", days.upperBound.description),
                ])
            subject = "daily rollups of \(metric)"
        case .sleep(let nights):
            path = "/v1/projections/sleep?" + Self.rangeQuery(nights)
            subject = "sleep nights"
        case .insights(let days):
            path = "/v1/projections/insights?" + Self.rangeQuery(days)
            subject = "insights"
        case .everything:
            throw .permanent(reason: "everything is not one projection scope")
        }
        var request = HTTPClientRequest(url: configuration.endpoint + path)
        request.headers.add(name: "Accept", value: "application/json")
        if let etag { request.headers.add(name: "If-None-Match", value: etag) }
        // Without an ETag sent, a 304 is an error like any other status outside 2xx.
        let answer = try await exchange(request, subject: subject, accepting: etag == nil ? [] : [304])
        if answer.status == 304 { return .notModified }
        let data: ProjectionData
        switch scope {
        case .daily:
            let body = try decode(DailyRollupsBody.self, answer.body, subject: subject, as: "a list of days")
            let days = body.days.compactMap(DailyRollup.init)
            guard days.count == body.days.count else { throw Self.malformed(subject, as: "a list of days") }
            data = .daily(days)
        case .sleep:
            let body = try decode(SleepNightsBody.self, answer.body, subject: subject, as: "a list of nights")
            let nights = body.nights.compactMap(SleepNight.init)
            guard nights.count == body.nights.count else { throw Self.malformed(subject, as: "a list of nights") }
            data = .sleep(nights)
        default:
            data = .insights(try decode(InsightsBody.self, answer.body, subject: subject).days)
        }
        return .fresh(data, etag: answer.etag)
    }

    public func projectionExtent() async throws(DeliveryError) -> ProjectionExtent {
        var request = HTTPClientRequest(url: configuration.endpoint + "/v1/projections/extent")
        request.headers.add(name: "Accept", value: "application/json")
        let answer = try await exchange(request, subject: "the projections' extent")
        let body = try decode(ExtentBody.self, answer.body, subject: "the projections' extent")
        var days: [String: ClosedRange<CivilDate>] = [:]
        for metric in body.metrics {
            guard let first = CivilDate(text: metric.first), let last = CivilDate(text: metric.last), first <= last
            else { throw Self.malformed("the projections' extent") }
            days[metric.metric] = first...last
        }
        return ProjectionExtent(head: body.head, days: days)
    }

    private static func rangeQuery(_ days: ClosedRange<CivilDate>) -> String {
        QueryEncoding.query([("from", days.lowerBound.description), ("to", days.upperBound.description)])
    }

    private func decode<T: Decodable>(
        _ type: T.Type, _ body: [UInt8], subject: String, as shape: String = "what the API describes"
    ) throws(DeliveryError) -> T {
        guard let value = try? JSONDecoder().decode(type, from: Data(body)) else {
            throw Self.malformed(subject, as: shape)
        }
        return value
    }

    private static func malformed(_ subject: String, as shape: String = "what the API describes") -> DeliveryError {
        .retryable(reason: "the collector's answer for \(subject) is not \(shape)", notBeforeSeconds: nil)
    }
}
