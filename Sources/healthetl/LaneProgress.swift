import HealthETLCore
import HealthETLPipeline

/// A live run's progress on standard error (`StatusLine`): the simulated clock, records per
/// lane, deletions.
final class LaneProgress: @unchecked Sendable {
    private let enabled: Bool
    private let status = StatusLine()

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func report(_ summary: LiveIngestSummary) {
        guard enabled else { return }
        let line =
            "simulated \(summary.simulatedThrough.iso8601(utcOffsetSeconds: 0))  "
            + Lane.allCases.map { "\($0.rawValue) \(summary.tally($0).records)" }.joined(separator: "  ")
            + "  tombstones \(summary.tally(.change).tombstones)"
        status.show(line, elapsed: summary.elapsedSeconds)
    }

    func finish() { status.finish() }
}
