import Foundation
import HealthETLCollectorStorage
import HealthETLWire
import Hummingbird

/// `GET` and `PUT /v1/settings/source-priority`: the caller's source priority, which their
/// projections rank sources by. A new one makes every projection day of theirs stale.
struct SourcePriorityHandlers: Sendable {
    let storage: any CollectorStorage
    let hub: ChangeHub
    /// A hundred names of 200 characters, each escaped as `\uXXXX` pairs, fit well within it.
    static let maximumBodyBytes = 1 << 20

    func get(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        return JSONResponse.make(WireSourcePriority(sources: try await storage.sourcePriority(user: user)))
    }

    func put(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        let wanted = try await Self.decode(request)
        if let problem = wanted.problem {
            throw APIError(.unprocessableContent, "invalid_source_priority", problem)
        }
        if try await storage.setSourcePriority(wanted.sources, user: user) { hub.publish(user: user, change: nil) }
        return JSONResponse.make(wanted)
    }

    /// The body as a priority, or a 4xx that says what is wrong with it (paths, never values).
    private static func decode(_ request: Request) async throws -> WireSourcePriority {
        if let type = request.headers[.contentType], !type.lowercased().hasPrefix("application/json") {
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type",
                "send the source priority as application/json")
        }
        if let encoding = request.headers[.contentEncoding], encoding.lowercased() != "identity" {
            throw APIError(
                .unsupportedMediaType, "unsupported_encoding", "send the source priority uncompressed")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBodyBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError(
                .contentTooLarge, "body_too_large", "the body is larger than \(maximumBodyBytes) bytes")
        }
        do {
            return try JSONDecoder().decode(WireSourcePriority.self, from: Data(buffer.readableBytesView))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            // Corrupt at the root: the bytes are not JSON at all.
            throw APIError(.badRequest, "invalid_json", "the body is not valid JSON")
        } catch let error as DecodingError {
            throw APIError(.badRequest, "invalid_body", DecodingErrorText.describe(error))
        } catch {
            throw APIError(.badRequest, "invalid_json", "the body is not valid JSON")
        }
    }
}
