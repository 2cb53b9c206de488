import Foundation
import HealthETLCore
import HealthETLStore
import Synthetic

/// `healthetl-bench`: throughput of the import path's pieces, in a release build.
@main
enum Main {
    static func main() throws {
        let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1_000_000
        // `healthetl-bench COUNT PATH [SOURCE]`: a source adapter's reading speed on PATH, alone
        // (Apple Health's by default, or `fit`).
        if let path = CommandLine.arguments.dropFirst(2).first {
            try ExportReading.measure(path: path, source: CommandLine.arguments.dropFirst(3).first ?? "apple_health")
            return
        }
        print("healthetl benchmarks: \(count) records each\n")
        let catalog = try MetricCatalog.bundled()
        let records = (0..<count).map { index in
            let seconds = 1_700_000_000 + index * 5
            let date = Instant(secondsSinceEpoch: Int64(seconds)).iso8601(utcOffsetSeconds: -28_800)
            // Apple's spelling: "2023-11-14 14:13:20 -0800".
            let apple = String(date.prefix(10)) + " " + String(date.dropFirst(11).prefix(8)) + " -0800"
            return RawRecord(
                type: "HKQuantityTypeIdentifierHeartRate", sourceName: "Watch", unit: "count/min",
                value: .text(String(60 + index % 60)), start: .text(apple), end: .text(apple))
        }

        let dates = records.map { $0.start.asWritten }
        let (parsed, parseSeconds) = Measurement.time {
            dates.reduce(0) { $0 + (TimestampParser.parse($1) == nil ? 0 : 1) }
        }
        print(
            "timestamp parse     \(Measurement.rate(parsed, parseSeconds))  (\(String(format: "%.0f", parseSeconds / Double(count) * 1e9)) ns each)"
        )

        let normalizer = Normalizer(catalog: catalog, now: Instant(secondsSinceEpoch: 1_800_000_000))
        let (samples, normalizeSeconds) = Measurement.time {
            records.compactMap { record -> Sample? in
                if case .accepted(let sample) = normalizer.normalize(record) { return sample }
                return nil
            }
        }
        precondition(samples.count == count, "every benchmark record must be accepted")
        print("normalize           \(Measurement.rate(count, normalizeSeconds))")

        let directory = NSTemporaryDirectory() + "healthetl-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Store(directory: StoreDirectory(path: directory))
        let batchSize = 5_000
        func load(stream: String) throws -> CommitResult {
            var total = CommitResult()
            for (batchIndex, start) in stride(from: 0, to: samples.count, by: batchSize).enumerated() {
                let slice = samples[start..<min(start + batchSize, samples.count)]
                total =
                    total
                    + (try store.commit(
                        CommitBatch(
                            stream: stream, samples: slice.map { LanedSample($0, lane: .cold) },
                            cursors: [.cold: Int64(batchIndex)])))
            }
            return total
        }
        let (first, firstSeconds) = try Measurement.time { try load(stream: "bench:first") }
        print("store commit (new)  \(Measurement.rate(first.inserted, firstSeconds))  batches of \(batchSize)")
        let (again, againSeconds) = try Measurement.time { try load(stream: "bench:again") }
        print("store commit (dup)  \(Measurement.rate(again.duplicates, againSeconds))")
        try syntheticGeneration(catalog: catalog, atLeast: count)
        try Rollups.measure(catalog: catalog, count: count)
        print(
            String(
                format: "\npeak RSS %.0f MiB (the %d records and samples are held in memory on purpose)",
                Measurement.peakResidentMiB, count))
    }

    /// The synthetic source alone, in memory: every lane of one person drained, records counted.
    static func syntheticGeneration(catalog: MetricCatalog, atLeast count: Int) throws {
        let origin = Instant(secondsSinceEpoch: 1_790_000_000)
        let person = SyntheticPerson(
            settings: SyntheticSettings(seed: 1, origin: origin, historyDays: max(30, count / 900)), catalog: catalog)
        let (generated, seconds) = Measurement.time {
            var records = 0
            for lane in Lane.allCases {
                var cursor = person.initialCursor(lane)
                while case .batch(let events, let next) = person.next(lane, after: cursor, now: origin, limit: 5_000) {
                    for event in events {
                        if case .record = event { records += 1 }
                    }
                    cursor = next
                }
            }
            return records
        }
        print("synthetic generate  \(Measurement.rate(generated, seconds))  (records of every lane, in memory)")
    }
}
