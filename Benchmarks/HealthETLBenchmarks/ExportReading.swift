import AppleHealth
import HealthETLCore

/// The Apple Health adapter alone on a real export file: inflate, libxml2, the export handler and
/// its events, with no normalizer and no store. The import's reading thread can go no faster.
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

    static func measure(path: String) throws {
        var handler = CountingHandler()
        let (report, seconds) = try Measurement.time {
            try AppleHealthAdapter().read(SourceInput(path: path), into: &handler)
        }
        print(
            "export read         \(Measurement.rate(handler.records, seconds))  (\(handler.records) records, "
                + "\(handler.events) events in \(String(format: "%.2f", seconds)) s, adapter only, no store; "
                + "complete \(report.complete))")
    }
}
