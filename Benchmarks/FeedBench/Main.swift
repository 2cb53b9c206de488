import CollectorSink
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import Synchronization

/// `healthetl-feed-bench`: the change feed against a running collector (Benchmarks/feed-bench.sh
/// starts one). Usage: healthetl-feed-bench URL TOKENS_FILE REPORT_JSON WORK_DIR
///
/// 1. Ingest without subscribers, then with 100 followers (10 per user) subscribed to the change
///    stream, four times each, alternating: the ingest rate with followers against without, and how
///    long after each commit its event reached every follower.
/// 2. A follower (`FeedFollower`, the code `healthetl follow` runs) catching up 365 changed days.
/// 3. A rebuild of unchanged projections: every scope must answer 304.
@main
enum Main {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 5 else {
            FileHandle.standardError.write(
                Data("usage: healthetl-feed-bench URL TOKENS_FILE REPORT_JSON WORK_DIR\n".utf8))
            exit(2)
        }
        do {
            let report = try await FeedBench(
                url: arguments[1], tokens: try Tokens.read(arguments[2]), work: arguments[4]
            ).run()
            try report.write(to: arguments[3])
            print(report.text)
            exit(report.failures.isEmpty ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("healthetl-feed-bench: FAILED: \(error)\n".utf8))
            exit(1)
        }
    }
}
