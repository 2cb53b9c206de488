import Foundation
import HealthETLCore

/// The daily-rollup calculators alone, in memory, on samples as the collector reads them back for
/// a refresh: ordered by start time, so six sources (a watch, a phone, apps) interleave sample by
/// sample.
enum Rollups {
    static func measure(catalog: MetricCatalog, count: Int) throws {
        let sources: [(name: String, device: String?)] = [
            ("Apple Watch", "<<HKDevice: 0x1>, name:Apple Watch, model:Watch>"),
            ("iPhone", "<<HKDevice: 0x2>, name:iPhone, model:iPhone>"),
            ("Oura", nil), ("Garmin Connect", nil), ("Withings", nil), ("MyFitnessPal", nil),
        ]
        for metric in ["step_count", "heart_rate"] {
            guard let definition = catalog.metric(named: metric)?.definition else {
                throw BenchError("the bundled catalog has no \(metric)")
            }
            let samples = (0..<count).map { index in
                let source = sources[index % sources.count]
                // One sample a minute per source, a minute long.
                let start = Instant(millisecondsSinceEpoch: 1_700_000_000_000 + Int64(index / sources.count) * 60_000)
                return Sample(
                    id: ContentID(high: UInt64(index), low: 1), metric: metric, sourceName: source.name,
                    device: source.device, start: start,
                    end: Instant(millisecondsSinceEpoch: start.millisecondsSinceEpoch + 60_000),
                    value: Double(index % 100))
            }
            let calculator = DailyRollupCalculator(metric: definition, priority: SourcePriority())
            // The best of three: one run swings by a fifth on a shared machine.
            let runs = (0..<3).map { _ in Measurement.time { calculator.rollups(for: samples) } }
            let best = runs.min { $0.1 < $1.1 }!
            let name = "rollups \(metric)".padding(toLength: 20, withPad: " ", startingAt: 0)
            print(
                "\(name)\(Measurement.rate(count, best.1))  (\(sources.count) interleaved sources, \(best.0.count) days, best of 3)"
            )
        }
    }
}
