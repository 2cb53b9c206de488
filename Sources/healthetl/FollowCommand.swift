import ArgumentParser
import Foundation
import HealthETLPipeline
import HealthETLRuntime

/// `healthetl follow`: keeps the local projections fresh from the collector's change feed.
struct FollowCommand: AsyncParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Follow the collector's change feed; keep the local projections fresh as any device uploads.",
        discussion: """
            Catches up through GET /v1/changes from the store's feed cursor (rebuilding the
            projections from scratch the first time, or when the collector no longer keeps the
            changes after it), then follows GET /v1/changes/stream. Each change's projections are
            pulled, with ETags so unchanged ones cost a 304, and written together with the cursor
            in one transaction. Reconnects with backoff. SIGTERM or SIGINT finishes the write in
            flight and exits 0 (within --drain-timeout). As a systemd user service: systemd/healthetl-follow.service.
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL
    @OptionGroup var sink: SinkOptions
    @OptionGroup var drain: DrainOptions

    @Flag(help: "Print one JSON object a line for each catch-up, change and failure.")
    var json = false

    func run() async throws {
        let choice = try sink.resolve(store: global.resolvedStorePath)
        let stop = StopSignal()
        let watcher = SignalWatcher(stop: stop, drainTimeout: drain.duration)
        defer { watcher.cancel() }
        let json = json
        try await CommandFailure.wrapping {
            try await FeedSession.follow(store: global.storeDirectory, sink: choice, stop: stop) { update in
                Self.show(update, json: json)
            }
        }
    }

    private static func show(_ update: FeedFollowUpdate, json: Bool) {
        struct Line: Encodable {
            let event: String
            let report: FeedReport?
            let error: String?
            let retryInSeconds: Double?

            private enum CodingKeys: String, CodingKey {
                case event, report, error
                case retryInSeconds = "retry_in_s"
            }
        }
        let line: Line
        switch update {
        case .caughtUp(let report): line = Line(event: "caught_up", report: report, error: nil, retryInSeconds: nil)
        case .applied(let report): line = Line(event: "applied", report: report, error: nil, retryInSeconds: nil)
        case .failed(let reason, let delay):
            line = Line(event: "failed", report: nil, error: reason, retryInSeconds: delay)
        }
        // Written straight to the file: a pipe would otherwise hold the lines back.
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(line) { FileHandle.standardOutput.write(data + Data("\n".utf8)) }
        } else if let report = line.report {
            let text = (update.isCatchUp ? "Caught up. " : "") + FeedSummary.line(report) + "\n"
            FileHandle.standardOutput.write(Data(text.utf8))
        } else {
            printError(
                "change feed: \(line.error ?? "failed"); reconnecting in \(String(format: "%.1f", line.retryInSeconds ?? 0)) s"
            )
        }
    }
}

extension FeedFollowUpdate {
    fileprivate var isCatchUp: Bool {
        if case .caughtUp = self { return true }
        return false
    }
}
