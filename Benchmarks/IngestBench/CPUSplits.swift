import Foundation
import HealthETLCore

/// The collector's per-batch CPU work that needs no database, replayed here on the same bodies
/// with the same library calls as `BatchHandler` and `BatchValidator` (single-threaded), so a
/// slow run can be split into "before SQLite" and "SQLite and HTTP".
///
/// Mirrors, in order: `ZstdBody.decompress`, `JSONDecoder().decode(WireBatch.self)`, the
/// canonical re-encode the idempotency digest hashes (`JSONResponse.encoder`: sorted keys), and
/// `BatchValidator.validate` (hex id, catalog lookup, two timestamp parses, limits, flags, the
/// `Sample` with its metadata). The SHA-256 of the re-encoded body is not replayed (under 2 ms
/// a batch with hardware SHA).
struct CPUSplits: Codable, Sendable {
    var batches = 0
    var samples = 0
    var decompressSeconds = 0.0
    var decodeSeconds = 0.0
    var reencodeSeconds = 0.0
    var validateSeconds = 0.0

    var totalSeconds: Double { decompressSeconds + decodeSeconds + reencodeSeconds + validateSeconds }

    static func measure(_ corpus: Corpus, catalog: MetricCatalog) throws -> CPUSplits {
        var splits = CPUSplits()
        let canonical = JSONEncoder()
        canonical.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var categories: [String: Set<String>] = [:]
        for definition in catalog.metrics {
            guard let metric = catalog.metric(named: definition.id), !metric.categoryValues.isEmpty else {
                continue
            }
            categories[definition.id] = Set(metric.categoryValues.values)
        }
        for body in corpus.bodies {
            let (json, decompress) = try Stopwatch.time {
                try Zstd.decompress(body.compressed, size: body.jsonBytes)
            }
            let (batch, decode) = try Stopwatch.time {
                try JSONDecoder().decode(WireBatch.self, from: Data(json))
            }
            let (_, reencode) = try Stopwatch.time { try canonical.encode(batch) }
            let (valid, validate) = Stopwatch.time {
                batch.samples.reduce(0) {
                    $0 + (validated($1, catalog: catalog, categories: categories) == nil ? 0 : 1)
                }
            }
            guard valid == batch.samples.count else {
                throw BenchFailure(
                    "batch \(body.batchID): \(batch.samples.count - valid) samples fail the collector's checks"
                )
            }
            splits.batches += 1
            splits.samples += batch.samples.count
            splits.decompressSeconds += decompress
            splits.decodeSeconds += decode
            splits.reencodeSeconds += reencode
            splits.validateSeconds += validate
        }
        return splits
    }

    /// `BatchValidator.sample(_:)`, reasons left out.
    private static func validated(
        _ wire: WireSample, catalog: MetricCatalog, categories: [String: Set<String>]
    ) -> Sample? {
        guard let id = ContentID(hex: wire.id), let metric = catalog.metric(named: wire.metric) else {
            return nil
        }
        let definition = metric.definition
        guard definition.kind != .correlation, !wire.source.isEmpty,
            let start = TimestampParser.parse(wire.start)?.instant,
            let end = TimestampParser.parse(wire.end)?.instant,
            end >= start
        else { return nil }
        if let offset = wire.utcOffsetSeconds, abs(offset) > 18 * 3600 { return nil }
        if definition.kind.isQuantity {
            guard let value = wire.value, value.isFinite else { return nil }
            if let minimum = definition.hard?.min, value < minimum { return nil }
            if let maximum = definition.hard?.max, value > maximum { return nil }
        } else if wire.value != nil {
            return nil
        }
        if definition.kind == .category {
            if let category = wire.category {
                guard categories[definition.id]?.contains(category) == true else { return nil }
            } else if !definition.valueOptional {
                return nil
            }
        } else if wire.category != nil {
            return nil
        }
        var metadata: [MetadataEntry] = []
        if let zone = wire.timeZone { metadata.append(MetadataEntry(key: "HKTimeZone", value: zone)) }
        if wire.userEntered == true { metadata.append(MetadataEntry(key: "HKWasUserEntered", value: "1")) }
        var flags = SampleFlags()
        for name in wire.flags ?? [] {
            guard let known = SampleFlags.named.first(where: { $0.name == name }) else { return nil }
            flags.insert(known.flag)
        }
        return Sample(
            id: id, metric: definition.id, sourceName: wire.source, sourceVersion: wire.sourceVersion,
            device: wire.device, start: start, end: end,
            utcOffsetSeconds: wire.utcOffsetSeconds.map(Int32.init),
            value: wire.value, category: wire.category, flags: flags, metadata: metadata)
    }
}
