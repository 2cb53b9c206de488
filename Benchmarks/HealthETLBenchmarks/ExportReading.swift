import AppleHealth
import FIT
import HealthETLCore

/// A source adapter alone on an input — Apple Health's (inflate, libxml2, the export handler and
/// its events) or FIT's (split, CRC, decode, map) — with no normalizer and no store. The
/// import's reading thread can go no faster.
enum ExportReading {
    /// Counts what the adapter hands on, as a consumer that keeps nothing.
    struct CountingHandler: SourceEventHandler {
        var records = 0
        var events = 0

        mutating func receive(_ event: SourceEvent) throws {
            events += 1
            if case .record = event { records += 1 }
        }
    }

    /// The adapters it measures, by the name `healthetl-bench COUNT PATH SOURCE` takes.
    static let adapters: [String: any SourceAdapter] = ["apple_health": AppleHealthAdapter(), "fit": FITAdapter()]

    static func measure(path: String, source: String = "apple_health") throws {
        guard let adapter = adapters[source] else {
            throw BenchError("no adapter named \(source): " + adapters.keys.sorted().joined(separator: ", "))
        }
        var handler = CountingHandler()
        let (report, seconds) = try Measurement.time {
            try adapter.read(SourceInput(path: path), into: &handler)
        }
        print(
            (source == "fit" ? "fit read   " : "export read") + "         \(Measurement.rate(handler.records, seconds))"
                + "  (\(handler.records) records, "
                + "\(handler.events) events in \(String(format: "%.2f", seconds)) s, adapter only, no store; "
                + "complete \(report.complete))")
    }
}
