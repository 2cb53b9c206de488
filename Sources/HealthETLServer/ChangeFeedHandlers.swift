import Foundation
import HTTPTypes
import HealthETLCollectorStorage
import HealthETLCore
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET /v1/changes` (pages) and `GET /v1/changes/stream` (Server-Sent Events): the caller's change
/// feed, from the sequence it asks for.
struct ChangeFeedHandlers: Sendable {
    let storage: any CollectorStorage
    let hub: ChangeHub
    /// A stream sends a comment when it has sent nothing for this long.
    let heartbeat: Duration
    /// How often a stream reads the feed without being woken: other collectors on a shared
    /// database commit without waking this one's subscribers.
    let poll: Duration

    static let defaultLimit = 500
    static let maximumLimit = 1000
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    /// 410's body: where the feed begins again.
    struct Gone: Encodable {
        let error = "resync"
        let message: String
        let head: Int64
    }

    func page(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        let parameters = request.uri.queryParameters
        let since = try Self.sequence(parameters.get("since"), name: "since") ?? 0
        var limit = Self.defaultLimit
        if let text = parameters.get("limit") {
            guard let value = Int(text), (1...Self.maximumLimit).contains(value) else {
                throw APIError.badRequest("limit is a number from 1 to \(Self.maximumLimit)")
            }
            limit = value
        }
        switch try await storage.changes(user: user, since: since, limit: limit) {
        case .page(let page):
            return JSONResponse.make(page, headers: [.cacheControl: "no-store"])
        case .gone(let head):
            return Self.gone(since: since, head: head)
        }
    }

    func stream(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        let asked =
            try Self.sequence(request.headers[Self.lastEventID], name: "Last-Event-ID")
            ?? Self.sequence(request.uri.queryParameters.get("since"), name: "since")
        let channel = context.channel
        guard let subscriber = hub.subscribe(user: user, close: { channel.close(promise: nil) }) else {
            throw APIError(
                .tooManyRequests, "too_many_subscribers",
                "this user has \(hub.maximumPerUser) change streams open already; close one or follow with GET /v1/changes"
            )
        }
        // Subscribed before the head is read: a commit in between wakes this stream.
        let start: Int64
        do {
            if let asked { start = asked } else { start = try await storage.feedHead(user: user) }
        } catch {
            hub.unsubscribe(subscriber)
            throw error
        }
        let storage = storage
        let hub = hub
        let heartbeat = heartbeat
        let poll = poll
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                defer { hub.unsubscribe(subscriber) }
                var stream = FeedStream(
                    storage: storage, hub: hub, subscriber: subscriber, cursor: start, heartbeat: heartbeat, poll: poll)
                // A server shutting down ends its streams, so it need not wait for their clients.
                try await withGracefulShutdownHandler {
                    try await stream.run(&writer)
                } onGracefulShutdown: {
                    subscriber.finish()
                }
                try await writer.finish(nil)
            })
    }

    static func gone(since: Int64, head: Int64) -> Response {
        JSONResponse.make(
            status: .gone,
            Gone(
                message:
                    "changes after \(since) are no longer kept; rebuild the projections from /v1/projections and follow from \(head)",
                head: head))
    }

    private static func sequence(_ text: String?, name: String) throws -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text), value >= 0 else {
            throw APIError.badRequest("\(name) is a change sequence number, 0 or more")
        }
        return value
    }
}
