import Foundation
import HTTPTypes
import HealthETLWire
import HealthETLZip
import Hummingbird

/// `POST /hae`: one push of Health Auto Export's REST automation — JSON, plain or gzip — committed
/// whole before the answer, so a 200 means stored and a resend after a lost answer stores nothing
/// twice (records are identified by their content).
///
/// The body is decoded as it arrives into a spool file, never held in memory: what a push costs
/// in memory does not grow with its size, and the spool files of all pushes in flight share one
/// budget of decoded bytes.
struct PushHandler: Sendable {
    let committer: any PushCommitter
    let maximumBodyBytes: Int
    let maximumDecodedBytes: Int
    let budget: DecodedBytesBudget
    let spoolDirectory: String
    let metrics: ServerMetrics?

    func handle(_ request: Request, context: CollectorContext) async throws -> Response {
        let device = try context.requireUser()
        let spool = try await spooledBody(request)
        defer { spool.close() }
        let requestID = context.requestID ?? context.id
        let started = ContinuousClock.now
        let outcome = try await committer.commit(body: spool.body, device: device, requestID: requestID)
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

    /// The body as sent, decompressed when it says gzip, within the size limits, in a spool file.
    private func spooledBody(_ request: Request) async throws -> PushSpool {
        let inflater: GzipStream?
        switch request.headers[.contentEncoding]?.lowercased() {
        case nil, "identity":
            inflater = nil
        case "gzip":
            inflater = try GzipStream(limit: maximumDecodedBytes)
        default:
            throw APIError(.unsupportedMediaType, "unsupported_encoding", "Content-Encoding must be gzip or absent")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximumBodyBytes {
            throw tooLargeAsSent
        }
        let spool: PushSpool
        do {
            spool = try PushSpool(directory: spoolDirectory, budget: budget)
        } catch {
            throw spoolError(error)
        }
        do {
            var received = 0
            for try await buffer in request.body {
                received += buffer.readableBytes
                guard received <= maximumBodyBytes else { throw tooLargeAsSent }
                try buffer.withUnsafeReadableBytes { bytes in
                    if let inflater {
                        try inflater.feed(bytes) { try spool.write($0) }
                    } else {
                        try spool.write(bytes)
                    }
                }
            }
            try inflater?.finish()
            return spool
        } catch let failure as GzipStream.Failure {
            spool.close()
            switch failure {
            case .tooLarge:
                throw APIError(
                    .contentTooLarge, "body_too_large",
                    "the body decompresses to more than \(maximumDecodedBytes) bytes")
            case .corrupt(let reason):
                throw APIError(.badRequest, "invalid_gzip", "the gzip body cannot be decompressed: \(reason)")
            }
        } catch let failure as PushSpool.Failure {
            spool.close()
            throw spoolError(failure)
        } catch {
            spool.close()
            throw error
        }
    }

    private var tooLargeAsSent: APIError {
        APIError(
            .contentTooLarge, "body_too_large",
            "the body is larger than \(maximumBodyBytes) bytes; choose a shorter period in the automation")
    }

    private func spoolError(_ failure: PushSpool.Failure) -> APIError {
        switch failure {
        case .budgetSpent:
            APIError(
                .serviceUnavailable, "busy",
                "the pushes in flight hold \(budget.limit) decoded bytes already; send this one again later")
        case .unwritable(let reason):
            APIError(
                .serviceUnavailable, "spool_unwritable",
                "the receiver cannot write the body to its disk (\(reason)); send it again later")
        }
    }
}
