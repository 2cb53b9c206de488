import Foundation
import HealthETLCore
import HealthETLServer
import HealthETLWire

/// The collector's per-batch CPU work that needs no database, run here on the same bodies with
/// the collector's own code (single-threaded), so a slow run can be split into "before SQLite"
/// and "SQLite and HTTP".
///
/// In `BatchHandler`'s order: `ZstdBody.decompress`, `WireBatchParser.parse` (and, for comparison
/// only, `JSONDecoder().decode(WireBatch.self)`, which the collector used before and asks now only
/// for bodies the direct parser does not read), the
/// canonical JSON the idempotency digest hashes (`WireBatch.jsonBytes`), and
/// `BatchValidator.validate`. The SHA-256 of the canonical JSON is not timed (under 2 ms a batch
/// with hardware SHA).
struct CPUSplits: Codable, Sendable {
    var batches = 0
    var samples = 0
    var decompressSeconds = 0.0
    var decodeSeconds = 0.0
    /// `JSONDecoder` on the same bodies: not part of the total.
    var referenceDecodeSeconds = 0.0
    var reencodeSeconds = 0.0
    var validateSeconds = 0.0

    var totalSeconds: Double { decompressSeconds + decodeSeconds + reencodeSeconds + validateSeconds }

    static func measure(_ corpus: Corpus, catalog: MetricCatalog) throws -> CPUSplits {
        var splits = CPUSplits()
        let validator = BatchValidator(catalog: catalog)
        for body in corpus.bodies {
            let (json, decompress) = try Stopwatch.time {
                try ZstdBody.decompress(body.compressed, limit: body.jsonBytes)
            }
            let (parsed, decode) = Stopwatch.time { WireBatchParser.parse(json) }
            let (reference, referenceDecode) = try Stopwatch.time {
                try JSONDecoder().decode(WireBatch.self, from: Data(json))
            }
            guard let batch = parsed, batch == reference else {
                throw BenchFailure("batch \(body.batchID): the direct parser does not read it as JSONDecoder does")
            }
            let (_, reencode) = Stopwatch.time { batch.jsonBytes() }
            let (validated, validate) = Stopwatch.time { validator.validate(batch) }
            guard validated.rejections.isEmpty else {
                throw BenchFailure(
                    "batch \(body.batchID): \(validated.rejections.count) items fail the collector's checks"
                )
            }
            splits.batches += 1
            splits.samples += batch.samples.count
            splits.decompressSeconds += decompress
            splits.decodeSeconds += decode
            splits.referenceDecodeSeconds += referenceDecode
            splits.reencodeSeconds += reencode
            splits.validateSeconds += validate
        }
        return splits
    }
}
