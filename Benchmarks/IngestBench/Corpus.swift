import CollectorSink
import Foundation
import HealthETLCore
import HealthETLWire
import Synthetic

/// The request bodies, built before the clock starts: synthetic people's histories, normalized,
/// cut into batches, encoded as `WireBatch` JSON and zstd-compressed.
struct Corpus: Sendable {
    struct Body: Sendable {
        let batchID: String
        let samples: Int
        let jsonBytes: Int
        /// What goes on the wire (`Content-Encoding: zstd`).
        let compressed: [UInt8]
    }

    var bodies: [Body] = []
    var generateSeconds = 0.0
    var encodeSeconds = 0.0
    var compressSeconds = 0.0
    /// Records the generator produced that the normalizer refused (never sent).
    var skippedRecords = 0
    var flaggedSamples = 0
    var metrics: [String: Int] = [:]

    var samples: Int { bodies.reduce(0) { $0 + $1.samples } }
    var jsonBytes: Int { bodies.reduce(0) { $0 + $1.jsonBytes } }
    var compressedBytes: Int { bodies.reduce(0) { $0 + $1.compressed.count } }

    /// 2026-01-01T00:00:00Z: the simulated "now" every person's history ends at.
    static let origin = Instant(secondsSinceEpoch: 1_767_225_600)

    static func build(_ options: Options, catalog: MetricCatalog) throws -> Corpus {
        var corpus = Corpus()
        let wanted = options.samples / options.batchSize * options.batchSize

        let (samples, generateSeconds) = Stopwatch.time {
            corpus.generate(wanted, options: options, catalog: catalog)
        }
        corpus.generateSeconds = generateSeconds
        guard samples.count >= wanted else {
            throw BenchFailure(
                "the generator gave \(samples.count) samples, fewer than the \(wanted) asked for")
        }

        // The uploaders' own JSON writer: sorted keys, byte-identical bodies run after run.
        var bodies: [Body] = []
        for (index, start) in stride(from: 0, to: wanted, by: options.batchSize).enumerated() {
            let batchID = "\(options.runID)-\(index)"
            let (json, encode) = Stopwatch.time {
                let batch = WireBatch(
                    batchID: batchID,
                    samples: samples[start..<start + options.batchSize].map(WireSample.init), deletions: [])
                return batch.jsonBytes()
            }
            let (compressed, compress) = try Stopwatch.time { try ZstdFrame.compress(json, level: options.level) }
            corpus.encodeSeconds += encode
            corpus.compressSeconds += compress
            bodies.append(
                Body(
                    batchID: batchID, samples: options.batchSize, jsonBytes: json.count,
                    compressed: compressed))
        }
        corpus.bodies = bodies
        return corpus
    }

    /// Samples of `people` simulated people (then more if need be), each with enough days of
    /// history, hot and cold lanes drained, in the order an uploader would send them.
    private mutating func generate(_ wanted: Int, options: Options, catalog: MetricCatalog) -> [Sample] {
        // A natural simulated day is about 990 records; aim a little over.
        let days = max(2, (wanted + options.people * 900 - 1) / (options.people * 900) + 1)
        let normalizer = Normalizer(catalog: catalog, now: Self.origin)
        var samples: [Sample] = []
        samples.reserveCapacity(wanted + 10_000)
        var person = 0
        while samples.count < wanted {
            person += 1
            let source = SyntheticPerson(
                settings: SyntheticSettings(
                    seed: options.seed, person: person, origin: Self.origin, historyDays: days,
                    changesPerDay: 0),
                catalog: catalog)
            for lane in [Lane.cold, Lane.hot] {
                var cursor = source.initialCursor(lane)
                while samples.count < wanted,
                    case .batch(let events, let next) = source.next(
                        lane, after: cursor, now: Self.origin, limit: 5_000)
                {
                    for case .record(let record, _) in events {
                        switch normalizer.normalize(record) {
                        case .accepted(let sample):
                            samples.append(sample)
                            metrics[sample.metric, default: 0] += 1
                        case .flagged(let sample):
                            samples.append(sample)
                            metrics[sample.metric, default: 0] += 1
                            flaggedSamples += 1
                        case .quarantined:
                            skippedRecords += 1
                        }
                    }
                    cursor = next
                }
            }
            precondition(person < 1_000, "the synthetic people give no samples")
        }
        return samples
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum Stopwatch {
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let result = try body()
        return (result, (ContinuousClock.now - start).seconds)
    }
}
