import Foundation
import HealthETLCollectorStorage
import HealthETLCore
import Hummingbird
import NIOCore

/// One subscriber's event stream: each change after the cursor as an SSE event with its sequence
/// as `id`, a `resync` event when the cursor fell out of the feed, a comment as a heartbeat.
struct FeedStream {
    let storage: any CollectorStorage
    let hub: ChangeHub
    let subscriber: FeedSubscriber
    var cursor: Int64
    let heartbeat: Duration
    let poll: Duration
    static let pageSize = 200

    mutating func run(_ writer: inout some ResponseBodyWriter) async throws {
        let clock = ContinuousClock()
        // Tells the client how soon to reconnect, and shows it the stream is open.
        try await write("retry: 2000\n\n", to: &writer)
        var lastWrite = clock.now
        var lastRead = clock.now
        try await drain(&writer)
        for await _ in subscriber.wakeups {
            let now = clock.now
            let changed = subscriber.takeChanged()
            // Memory when it has what follows the cursor; the database when it cannot say, and
            // every `poll` for what other collectors committed.
            if changed, let recent = hub.recent(user: subscriber.user, after: cursor) {
                if try await send(recent, &writer) { lastWrite = now }
            } else if changed || now - lastRead >= poll {
                lastRead = now
                if try await drain(&writer) { lastWrite = now }
            }
            if clock.now - lastWrite >= heartbeat {
                try await write(": heartbeat\n\n", to: &writer)
                lastWrite = clock.now
            }
        }
    }

    /// Sends every change after the cursor. - Returns: whether it sent anything.
    @discardableResult
    private mutating func drain(_ writer: inout some ResponseBodyWriter) async throws -> Bool {
        var sent = false
        while true {
            switch try await storage.changes(user: subscriber.user, since: cursor, limit: Self.pageSize) {
            case .gone(let head):
                try await write("event: resync\ndata: {\"head\":\(head)}\n\n", to: &writer)
                cursor = head
                return true
            case .page(let page):
                if try await send(page.changes, &writer) { sent = true }
                cursor = max(cursor, page.next)
                guard page.more, !page.changes.isEmpty else { return sent }
            }
        }
    }

    /// Sends the changes after the cursor as events and moves the cursor. - Returns: whether any.
    private mutating func send(_ changes: [FeedChange], _ writer: inout some ResponseBodyWriter) async throws -> Bool {
        var text = ""
        for change in changes where change.seq > cursor {
            let data = String(decoding: try JSONResponse.encoder.encode(change), as: UTF8.self)
            text += "id: \(change.seq)\nevent: change\ndata: \(data)\n\n"
            cursor = change.seq
        }
        guard !text.isEmpty else { return false }
        try await write(text, to: &writer)
        return true
    }

    private func write(_ text: String, to writer: inout some ResponseBodyWriter) async throws {
        try await subscriber.timing { try await writer.write(ByteBuffer(string: text)) }
    }
}
