import Crypto
import Foundation
import HTTPTypes
import HealthETLCollectorStorage
import HealthETLCore
import HealthETLWire
import Hummingbird

/// `POST /v1/batches`: idempotent by `Idempotency-Key`, zstd or plain JSON, all-or-nothing per
/// batch, per-item rejections listed.
struct BatchHandler: Sendable {
    let storage: any CollectorStorage
    let validator: BatchValidator
    /// Knows when batches are being written, for the background projection refresh.
    let activity: IngestActivity
    /// Told of each stored batch, to wake the user's change streams.
    let hub: ChangeHub
    /// Counts what was ingested, when `--metrics-address` is given.
    let metrics: ServerMetrics?
    let inFlight = InFlightBatches()
    let maximumBodyBytes: Int
    let maximumDecodedBytes: Int

    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    func handle(_ request: Request, context: CollectorContext) async throws -> Response {
        do {
            return try await store(request, context: context)
        } catch let error as APIError where Self.refusesTheBatch(error.status) {
            metrics?.ingested(.batches, .rejected, count: 1)
            throw error
        }
    }

    /// A refusal of the batch itself (bad JSON, too large, a reused key), not of the request's
    /// credentials or timing.
    static func refusesTheBatch(_ status: HTTPResponse.Status) -> Bool {
        [.badRequest, .contentTooLarge, .unsupportedMediaType, .unprocessableContent].contains(status)
    }

    private func store(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        guard let key = request.headers[Self.idempotencyKey], BatchValidator.isValidBatchID(key) else {
            throw APIError(
                .badRequest, "missing_idempotency_key",
                "send the batch id in an Idempotency-Key header (1 to 128 printable characters, no spaces)")
        }
        // Claimed before the body is read: a slow upload is already "in progress".
        guard inFlight.claim(user: user, batch: key) else {
            throw APIError(
                .conflict, "batch_in_progress",
                "a request with this Idempotency-Key is still being processed; retry later")
        }
        defer { inFlight.release(user: user, batch: key) }

        let (batch, digest) = try Self.decode(try await decodedBody(request))
        guard batch.batchID == key else {
            throw APIError(
                .badRequest, "batch_id_mismatch", "the body's batch_id differs from the Idempotency-Key header")
        }
        let validated = validator.validate(batch)
        let started = ContinuousClock.now
        let outcome = try await activity.writing { try await storage.apply(validated, user: user, bodyDigest: digest) }
        metrics?.committed(after: ContinuousClock.now - started)
        switch outcome {
        case .stored(let response, let change):
            hub.publish(user: user, change: change)
            count(stored: response, of: batch)
            return JSONResponse.make(status: .ok, bytes: response)
        case .replayed(let response):
            metrics?.ingested(.batches, .duplicate, count: 1)
            metrics?.ingested(.samples, .duplicate, count: batch.samples.count)
            metrics?.ingested(.deletions, .duplicate, count: batch.deletions.count)
            return JSONResponse.make(status: .ok, bytes: response, headers: [Self.replayed: "true"])
        case .differentBody:
            throw APIError(
                .unprocessableContent, "idempotency_key_reused",
                "this Idempotency-Key was used for a batch with a different body; a new batch needs a new id")
        }
    }

    /// A stored batch in the metrics, as its response tells it: samples and deletions stored or refused.
    private func count(stored response: [UInt8], of batch: WireBatch) {
        guard let metrics, let answer = try? JSONDecoder().decode(WireBatchResponse.self, from: Data(response)) else {
            return
        }
        let refusedSamples = answer.rejected.count { $0.item == "sample" }
        metrics.ingested(.batches, .stored, count: 1)
        metrics.ingested(.samples, .stored, count: answer.accepted)
        metrics.ingested(.samples, .rejected, count: refusedSamples)
        metrics.ingested(.deletions, .stored, count: answer.deleted)
        metrics.ingested(.deletions, .rejected, count: answer.rejected.count - refusedSamples)
    }

    /// The body as sent, decompressed when it says zstd, within the size limits.
    private func decodedBody(_ request: Request) async throws -> [UInt8] {
        if let type = request.headers[.contentType], !type.lowercased().hasPrefix("application/json") {
            throw APIError(.unsupportedMediaType, "unsupported_media_type", "send the batch as application/json")
        }
        let bytes = try await RequestBody.collect(request, upTo: maximumBodyBytes, advice: "send smaller batches")
        switch request.headers[.contentEncoding]?.lowercased() {
        case nil, "identity":
            return bytes
        case "zstd":
            do {
                return try ZstdBody.decompress(bytes, limit: maximumDecodedBytes)
            } catch .tooLarge {
                throw APIError(
                    .contentTooLarge, "body_too_large",
                    "the body decompresses to more than \(maximumDecodedBytes) bytes; send smaller batches")
            } catch .corrupt(let reason) {
                throw APIError(.badRequest, "invalid_zstd", "the zstd body cannot be decompressed: \(reason)")
            }
        default:
            throw APIError(.unsupportedMediaType, "unsupported_encoding", "Content-Encoding must be zstd or absent")
        }
    }

    /// The batch, or a 400 that says where the JSON went wrong (paths and types, never values).
    /// `WireBatchParser` reads the bodies clients write; `JSONDecoder` judges any other.
    /// The batch and its digest. "The same body" means the same batch, however the client spaced
    /// or ordered its JSON: the digest is over the batch's canonical JSON, which a body the
    /// parser found canonical already is (hashing it saves writing it again).
    static func decode(_ body: [UInt8]) throws -> (batch: WireBatch, digest: [UInt8]) {
        if let (batch, isCanonical) = WireBatchParser.read(body) {
            return (batch, isCanonical ? Array(SHA256.hash(data: body)) : batch.canonicalDigest())
        }
        do {
            let batch = try JSONDecoder().decode(WireBatch.self, from: Data(body))
            return (batch, batch.canonicalDigest())
        } catch let error as DecodingError {
            throw APIError(.badRequest, "invalid_batch", DecodingErrorText.describe(error))
        } catch {
            throw APIError(.badRequest, "invalid_json", "the body is not valid JSON")
        }
    }
}
