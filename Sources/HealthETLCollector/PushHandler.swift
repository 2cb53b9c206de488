import Foundation
import HTTPTypes
import Hummingbird

/// `POST /hae`: one push of Health Auto Export's REST automation — JSON, plain or gzip — committed
/// whole before the answer, so a 200 means stored and a resend after a lost answer stores nothing
/// twice (records are identified by their content).
struct PushHandler: Sendable {
    let committer: any PushCommitter
    let maximumBodyBytes: Int
    let maximumDecodedBytes: Int
    let metrics: ServerMetrics?

    func handle(_ request: Request, context: CollectorContext) async throws -> Response {
        let device = try context.requireUser()
        let body = try await decodedBody(request)
        let requestID = context.requestID ?? context.id
        let started = ContinuousClock.now
        let outcome = try await committer.commit(body: body, device: device, requestID: requestID)
        switch outcome {
        case .committed(let json, let stored, let duplicates, let refused):
            metrics?.committed(after: ContinuousClock.now - started)
            metrics?.ingested(.batches, .stored, count: 1)
            metrics?.ingested(.samples, .stored, count: stored)
            metrics?.ingested(.samples, .duplicate, count: duplicates)
            metrics?.ingested(.samples, .rejected, count: refused)
            return JSONResponse.make(status: .ok, bytes: json)
        case .malformed(let reason):
            metrics?.ingested(.batches, .rejected, count: 1)
            throw APIError(.badRequest, "invalid_payload", reason)
        }
    }

    /// The body as sent, decompressed when it says gzip, within the size limits.
    private func decodedBody(_ request: Request) async throws -> [UInt8] {
        let bytes = try await RequestBody.collect(
            request, upTo: maximumBodyBytes, advice: "choose a shorter period in the automation")
        switch request.headers[.contentEncoding]?.lowercased() {
        case nil, "identity":
            return bytes
        case "gzip":
            do {
                return try GzipBody.decompress(bytes, limit: maximumDecodedBytes)
            } catch .tooLarge {
                throw APIError(
                    .contentTooLarge, "body_too_large",
                    "the body decompresses to more than \(maximumDecodedBytes) bytes")
            } catch .corrupt(let reason) {
                throw APIError(.badRequest, "invalid_gzip", "the gzip body cannot be decompressed: \(reason)")
            }
        default:
            throw APIError(.unsupportedMediaType, "unsupported_encoding", "Content-Encoding must be gzip or absent")
        }
    }
}
