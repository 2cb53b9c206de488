import Foundation
import HealthETLWire

/// `healthetl-ingest-bench` command line (hand-parsed: the bench keeps its dependencies few).
struct Options: Sendable {
    var url = ""
    var token = ""
    var concurrency = 4
    var batchSize = 5_000
    var samples = 500_000
    var people = 4
    var seed: UInt64 = 1
    var level: Int32 = 3
    var target = 50_000.0
    var runID = ""
    var json = false
    /// Also write the JSON report here (the script reads the send time from it).
    var reportPath: String?
    var send = true
    var cpuSplits = false
    var timeoutSeconds: Int64 = 300

    static let usage = """
        usage: healthetl-ingest-bench --url http://127.0.0.1:PORT --token TOKEN [options]
               healthetl-ingest-bench --no-send [options]

        Pre-generates synthetic samples, encodes them as WireBatch JSON bodies, zstd-compresses them
        (all before the clock starts), then POSTs them to URL/v1/batches and reports throughput and
        per-batch latency (send -> full response).

          --url URL            the collector's base URL (http://127.0.0.1:PORT)
          --token TOKEN        a bearer token from the collector's tokens file
          --concurrency N      requests in flight at once, one connection each (default 4)
          --batch-size N       samples per batch (default 5000)
          --samples N          samples in all, at least (default 500000; rounded down to whole batches)
          --people N           simulated people the samples come from (default 4)
          --seed N             generator seed (default 1)
          --level N            zstd level (default 3)
          --target N           samples/s the verdict line checks against (default 50000)
          --run-id ID          batch id prefix (default: derived from the clock, unique per run)
          --timeout S          per-request timeout in seconds (default 300)
          --no-send            only generate and encode, and report how long that took
          --cpu-splits         also time, per batch, the collector's CPU steps that need no database
                               (zstd decompress, JSON decode, canonical re-encode, validation)
          --json               print one JSON object instead of the text report
          --report-json FILE   also write the JSON report to FILE
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ name: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw UsageError("\(name) needs a value") }
            return next
        }
        func integer(_ name: String, minimum: Int = 1) throws(UsageError) -> Int {
            let text = try value(name)
            guard let number = Int(text), number >= minimum else {
                throw UsageError("\(name) must be an integer >= \(minimum), not '\(text)'")
            }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--url": options.url = try value(argument)
            case "--token": options.token = try value(argument)
            case "--concurrency": options.concurrency = try integer(argument)
            case "--batch-size": options.batchSize = try integer(argument)
            case "--samples": options.samples = try integer(argument)
            case "--people": options.people = try integer(argument)
            case "--seed": options.seed = UInt64(try integer(argument, minimum: 0))
            case "--level": options.level = Int32(try integer(argument, minimum: -7))
            case "--target": options.target = Double(try integer(argument, minimum: 0))
            case "--run-id": options.runID = try value(argument)
            case "--timeout": options.timeoutSeconds = Int64(try integer(argument))
            case "--no-send": options.send = false
            case "--cpu-splits": options.cpuSplits = true
            case "--json": options.json = true
            case "--report-json": options.reportPath = try value(argument)
            case "-h", "--help": throw UsageError(nil)
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
        if options.send {
            guard options.url.hasPrefix("http://") || options.url.hasPrefix("https://") else {
                throw UsageError("--url http://HOST:PORT is required (or --no-send)")
            }
            guard !options.token.isEmpty else { throw UsageError("--token is required (or --no-send)") }
        }
        while options.url.hasSuffix("/") { options.url.removeLast() }
        guard options.samples >= options.batchSize else {
            throw UsageError("--samples must be at least --batch-size")
        }
        if options.runID.isEmpty {
            options.runID = "bench-\(UInt64(Date().timeIntervalSince1970 * 1000))-\(getpid())"
        }
        return options
    }
}

struct UsageError: Error {
    /// nil: help was asked for.
    let message: String?
    init(_ message: String?) { self.message = message }
}
