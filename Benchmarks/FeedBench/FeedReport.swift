import Foundation
import HealthETLPipeline

/// The bench's figures and target verdicts, as Benchmarks/benchjson.py documents them.
struct FeedReport {
    var figures: [[String: Any]] = []
    var targets: [[String: Any]] = []
    var failures: [String] = []
    var lines: [String] = []

    mutating func ingest(
        without: [IngestRound], with: [IngestRound], latencies: [Double], fromSend: [Double], missing: Int
    ) {
        func rate(_ rounds: [IngestRound]) -> Double {
            Double(rounds.map(\.samples).reduce(0, +)) / rounds.map(\.seconds).reduce(0, +)
        }
        let bare = rate(without)
        let followed = rate(with)
        let sorted = latencies.sorted()
        let sortedSend = fromSend.sorted()
        func percentile(_ values: [Double], _ p: Double) -> Double {
            values.isEmpty ? .nan : values[min(values.count - 1, Int((Double(values.count) * p).rounded(.up)) - 1)]
        }
        let p50 = percentile(sorted, 0.50) * 1000
        let p99 = percentile(sorted, 0.99) * 1000
        let p99Send = percentile(sortedSend, 0.99) * 1000
        let ratio = followed / bare
        figures.append([
            "name": "ingest with 100 followers of 10 users",
            "samples_per_s_without_followers": bare.rounded(), "samples_per_s_with_followers": followed.rounded(),
            "ratio": (ratio * 1000).rounded() / 1000, "events_measured": latencies.count, "events_missing": missing,
            "event_after_commit_p50_ms": p50.rounded(), "event_after_commit_p99_ms": p99.rounded(),
            "event_after_commit_max_ms": ((sorted.last ?? .nan) * 1000).rounded(),
            "event_after_send_p99_ms": p99Send.rounded(),
            "rounds_without": without.map { $0.rate.rounded() }, "rounds_with": with.map { $0.rate.rounded() },
        ])
        lines.append(
            String(
                format:
                    "  ingest     %.0f samples/s without followers, %.0f with 100 followers of 10 users (%.1f %%)",
                bare, followed, ratio * 100))
        lines.append(
            String(
                format:
                    "  events     %d delivered, %d missing; after the commit's answer p50 %.0f ms, p99 %.0f ms; after the send p99 %.0f ms",
                latencies.count, missing, p50, p99, p99Send))
        targets.append(
            target(
                "event latency p99", p99 <= 500 && missing == 0, p99.rounded(), "<= 500 ms",
                String(format: "event reaches its followers %.0f ms p99 after commit (target <= 500 ms)", p99)))
        targets.append(
            target(
                "ingest with followers", ratio >= 0.9, (ratio * 1000).rounded() / 1000, ">= 0.90",
                String(format: "ingest with followers at %.1f %% of the rate without (target >= 90 %%)", ratio * 100)))
        if missing > 0 { failures.append("\(missing) events never reached their follower") }
    }

    mutating func catchUp(
        _ caught: HealthETLPipeline.FeedReport, seconds: Double, daysStored: Int,
        rebuild: HealthETLPipeline.FeedReport, rebuildSeconds: Double
    ) {
        figures.append([
            "name": "follow catching up 365 changed days", "changes": caught.changes, "scopes": caught.scopes,
            "pulled": caught.pulled, "not_modified": caught.notModified, "seconds": (seconds * 1000).rounded() / 1000,
            "days_stored": daysStored,
        ])
        figures.append([
            "name": "rebuild of unchanged projections", "scopes": rebuild.scopes, "pulled": rebuild.pulled,
            "not_modified": rebuild.notModified, "seconds": (rebuildSeconds * 1000).rounded() / 1000,
        ])
        lines.append(
            String(
                format: "  catch-up   %d changes, %d scopes pulled, %d days stored in %.2f s",
                caught.changes, caught.pulled, daysStored, seconds))
        lines.append(
            String(
                format: "  refresh    %d scopes asked: %d answered 304, %d pulled, in %.2f s", rebuild.scopes,
                rebuild.notModified, rebuild.pulled, rebuildSeconds))
        targets.append(
            target(
                "catch-up of 365 days", seconds <= 2 && daysStored == 365, (seconds * 1000).rounded() / 1000,
                "<= 2 s", String(format: "follow catches up 365 changed days in %.2f s (target <= 2 s)", seconds)))
        targets.append(
            target(
                "unchanged refresh", rebuild.pulled == 0 && rebuild.notModified == rebuild.scopes,
                rebuild.notModified, "304 only",
                "a refresh of \(rebuild.scopes) unchanged scopes costs \(rebuild.notModified) 304s and \(rebuild.pulled) pulls"
            ))
        if daysStored != 365 { failures.append("the follower stored \(daysStored) of 365 days") }
    }

    private func target(_ name: String, _ met: Bool, _ value: Any, _ limit: String, _ text: String) -> [String: Any] {
        ["name": name, "met": met, "value": value, "target": limit, "text": text]
    }

    var text: String {
        (lines + ["  targets"]
            + targets.map { "    \(($0["met"] as? Bool ?? false) ? "ok    " : "MISSED")  \($0["text"] ?? "")" }
            + failures.map { "  FAILURE: \($0)" }).joined(separator: "\n")
    }

    func write(to path: String) throws {
        let document: [String: Any] = [
            "bench": "feed", "title": "The change feed: followers, catch-up, 304s",
            "date": ISO8601DateFormatter().string(from: Date()), "figures": figures, "targets": targets,
            "failures": failures, "ok": failures.isEmpty,
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }
}
