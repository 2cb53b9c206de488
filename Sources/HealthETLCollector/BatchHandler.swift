import Crypto
import Foundation
import HTTPTypes
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
    let inFlight = InFlightBatches()
    let maximumBodyBytes: Int
    let maximumDecodedBytes: Int

    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    func handle(_ request: Request, context: CollectorContext) async throws -> Response {
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

        let batch = try Self.decode(try await decodedBody(request))
        // "The same body" means the same batch, however the client spaced or ordered its JSON: the
        // digest is over the batch's canonical JSON.
        let digest = batch.canonicalDigest()
        guard batch.batchID == key else {
            throw APIError(
                .badRequest, "batch_id_mismatch", "the body's batch_id differs from the Idempotency-Key header")
        }
        let validated = validator.validate(batch)
        switch try await activity.writing({ try await storage.apply(validated, user: user, bodyDigest: digest) }) {
        case .stored(let response, let change):
            hub.publish(user: user, change: change)
            return JSONResponse.make(status: .ok, bytes: response)
        case .replayed(let response):
            return JSONResponse.make(status: .ok, bytes: response, headers: [Self.replayed: "true"])
        case .differentBody:
            throw APIError(
                .unprocessableContent, "idempotency_key_reused",
                "this Idempotency-Key was used for a batch with a different body; a new batch needs a new id")
        }
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
    static func decode(_ body: [UInt8]) throws -> WireBatch {
        if let batch = WireBatchParser.parse(body) { return batch }
        do {
            return try JSONDecoder().decode(WireBatch.self, from: Data(body))
        } catch let error as DecodingError {
            throw APIError(.badRequest, "invalid_batch", DecodingErrorText.describe(error))
        } catch {
            throw APIError(.badRequest, "invalid_json", "the body is not valid JSON")
        }
    }
}
