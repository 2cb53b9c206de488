import Foundation
import HealthETLCore
import HealthETLWire

/// `healthetl-ingest-bench`: collector ingest throughput through HTTP (batches of zstd JSON),
/// client and server on one machine. Exit status: 0 the run completed (the verdict line says
/// whether the target was met), 1 a batch failed or the bench could not run, 2 usage.
@main
enum Main {
    static func main() async {
        let options: Options
        do {
            options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            if let message = error.message {
                FileHandle.standardError.write(
                    Data("healthetl-ingest-bench: \(message)\n\n\(Options.usage)\n".utf8))
                exit(2)
            }
            print(Options.usage)
            exit(0)
        }
        do {
            exit(try await run(options) ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("healthetl-ingest-bench: FAILED: \(error)\n".utf8))
            exit(1)
        }
    }

    static func note(_ text: String, _ options: Options) {
        FileHandle.standardError.write(Data("==> \(text)\n".utf8))
    }

    /// True when every batch was stored whole.
    static func run(_ options: Options) async throws -> Bool {
        let catalog = try MetricCatalog.bundled()
        note(
            "generating and encoding \(options.samples) samples (\(options.people) people, seed \(options.seed)) before the clock starts",
            options)
        let corpus = try Corpus.build(options, catalog: catalog)
        note(
            String(
                format:
                    "%d batches of %d: generate %.2f s, JSON encode %.2f s, zstd -%d %.2f s; %.1f MB JSON -> %.1f MB zstd",
                corpus.bodies.count, options.batchSize, corpus.generateSeconds, corpus.encodeSeconds,
                Int(options.level),
                corpus.compressSeconds, Double(corpus.jsonBytes) / 1e6, Double(corpus.compressedBytes) / 1e6),
            options)

        var report = Report(options: options, corpus: corpus)
        if options.cpuSplits {
            note("timing the collector's database-free CPU steps on the same bodies (one thread)", options)
            report.cpuSplits = try CPUSplits.measure(corpus, catalog: catalog)
        }
        if options.send {
            note("POST \(options.url)/v1/batches with \(options.concurrency) requests in flight", options)
            let run = try await Sender.run(corpus, options: options)
            report.add(run, corpus: corpus)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(report)
        if let path = options.reportPath {
            guard FileManager.default.createFile(atPath: path, contents: json + Data("\n".utf8)) else {
                throw BenchFailure("cannot write \(path)")
            }
        }
        if options.json {
            print(String(decoding: json, as: UTF8.self))
        } else {
            print(report.text)
        }
        for failure in report.failures.prefix(5) {
            FileHandle.standardError.write(Data("healthetl-ingest-bench: FAILED: \(failure)\n".utf8))
        }
        return report.failures.isEmpty
    }
}

/// What the run measured, as text or JSON.
struct Report: Codable, Sendable {
    var url: String?
    var concurrency: Int
    var batchSize: Int
    var zstdLevel: Int
    var people: Int
    var seed: UInt64
    var targetSamplesPerSecond: Double

    var samples: Int
    var batches: Int
    var jsonBytes: Int
    var compressedBytes: Int
    var flaggedSamples: Int
    var skippedRecords: Int
    var generateSeconds: Double
    var encodeSeconds: Double
    var compressSeconds: Double

    var sent = false
    var batchesStored = 0
    var samplesStored = 0
    var wallSeconds: Double?
    var clientCPUSeconds: Double?
    var samplesPerSecond: Double?
    var megabytesPerSecond: Double?
    var latencyP50Ms: Double?
    var latencyP90Ms: Double?
    var latencyP99Ms: Double?
    var latencyMaxMs: Double?
    var latencyMinMs: Double?
    var verdict: String?
    var failures: [String] = []
    var cpuSplits: CPUSplits?

    init(options: Options, corpus: Corpus) {
        url = options.send ? options.url : nil
        concurrency = options.concurrency
        batchSize = options.batchSize
        zstdLevel = Int(options.level)
        people = options.people
        seed = options.seed
        targetSamplesPerSecond = options.target
        samples = corpus.samples
        batches = corpus.bodies.count
        jsonBytes = corpus.jsonBytes
        compressedBytes = corpus.compressedBytes
        flaggedSamples = corpus.flaggedSamples
        skippedRecords = corpus.skippedRecords
        generateSeconds = corpus.generateSeconds
        encodeSeconds = corpus.encodeSeconds
        compressSeconds = corpus.compressSeconds
    }

    mutating func add(_ run: Sender.Run, corpus: Corpus) {
        sent = true
        let stored = run.results.filter { $0.failure == nil }
        batchesStored = stored.count
        samplesStored = stored.reduce(0) { $0 + corpus.bodies[$1.index].samples }
        failures = run.results.compactMap(\.failure)
        if run.results.count < corpus.bodies.count, failures.isEmpty {
            failures.append("only \(run.results.count) of \(corpus.bodies.count) batches were sent")
        } else if run.results.count < corpus.bodies.count {
            failures.append(
                "stopped after the first failure: \(run.results.count) of \(corpus.bodies.count) batches sent"
            )
        }
        wallSeconds = run.wallSeconds
        clientCPUSeconds = run.cpuSeconds
        samplesPerSecond = Double(samplesStored) / run.wallSeconds
        megabytesPerSecond =
            Double(stored.reduce(0) { $0 + corpus.bodies[$1.index].compressed.count }) / 1e6 / run.wallSeconds
        let latencies = run.results.map(\.latency).sorted()
        func percentile(_ p: Double) -> Double? {
            guard !latencies.isEmpty else { return nil }
            // Nearest rank.
            let rank = max(1, Int((p / 100 * Double(latencies.count)).rounded(.up)))
            return latencies[min(rank, latencies.count) - 1] * 1000
        }
        latencyP50Ms = percentile(50)
        latencyP90Ms = percentile(90)
        latencyP99Ms = percentile(99)
        latencyMaxMs = latencies.last.map { $0 * 1000 }
        latencyMinMs = latencies.first.map { $0 * 1000 }
        let met = failures.isEmpty && (samplesPerSecond ?? 0) >= targetSamplesPerSecond
        verdict = met ? "ok" : "MISSED"
    }

    var text: String {
        func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
        func ms(_ value: Double?) -> String { value.map { String(format: "%.0f ms", $0) } ?? "-" }
        func group(_ value: Double) -> String {
            let formatter = NumberFormatter()
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 0
            return formatter.string(from: NSNumber(value: value)) ?? String(format: "%.0f", value)
        }
        var lines = ["", "healthetl collector ingest benchmark (HTTP, zstd -\(zstdLevel) WireBatch JSON)"]
        lines.append(
            "  corpus     \(group(Double(samples))) samples in \(batches) batches of \(batchSize) (\(people) simulated people, seed \(seed), "
                + "\(flaggedSamples) flagged); \(mb(jsonBytes)) JSON -> \(mb(compressedBytes)) zstd "
                + String(format: "(%.1fx)", Double(jsonBytes) / Double(max(1, compressedBytes))))
        lines.append(
            String(
                format:
                    "  prepare    generate %.2f s, JSON encode %.2f s (%@ samples/s), zstd %.2f s (%@ samples/s) — not timed below",
                generateSeconds, encodeSeconds, group(Double(samples) / encodeSeconds), compressSeconds,
                group(Double(samples) / compressSeconds)))
        if let splits = cpuSplits {
            let perBatch = { (seconds: Double) in
                String(format: "%.1f ms", seconds / Double(max(1, splits.batches)) * 1000)
            }
            lines.append(
                "  server CPU before SQLite, per batch (replayed here, one thread): zstd decompress \(perBatch(splits.decompressSeconds)), "
                    + "JSON decode \(perBatch(splits.decodeSeconds)) (JSONDecoder: \(perBatch(splits.referenceDecodeSeconds))), canonical re-encode \(perBatch(splits.reencodeSeconds)), "
                    + "validate \(perBatch(splits.validateSeconds)); total \(perBatch(splits.totalSeconds)) = "
                    + "\(group(Double(splits.samples) / splits.totalSeconds)) samples/s per core")
        }
        if sent, let wall = wallSeconds, let rate = samplesPerSecond {
            lines.append(
                "  server     \(url ?? "-"), \(concurrency) requests in flight"
                    + String(format: "; this client used %.2f CPU-s while sending", clientCPUSeconds ?? 0))
            lines.append(
                String(
                    format: "  sent       %d/%d batches stored, %@ samples in %.2f s, %@ zstd (%.2f MB/s)",
                    batchesStored, batches,
                    group(Double(samplesStored)), wall, mb(compressedBytes), megabytesPerSecond ?? 0))
            lines.append("  throughput \(group(rate)) samples/s")
            lines.append(
                "  latency    p50 \(ms(latencyP50Ms)), p90 \(ms(latencyP90Ms)), p99 \(ms(latencyP99Ms)), max \(ms(latencyMaxMs)) "
                    + "(min \(ms(latencyMinMs))), send -> full response, per batch of \(batchSize)")
            let verdictText = verdict ?? "MISSED"
            var why = "\(group(rate)) samples/s vs target >= \(group(targetSamplesPerSecond)) samples/s"
            if !failures.isEmpty { why += "; \(failures.count) failure(s), first: \(failures[0])" }
            lines.append("  verdict    \(verdictText)  \(why)")
        } else {
            lines.append("  (--no-send: nothing was posted)")
        }
        return lines.joined(separator: "\n")
    }
}
