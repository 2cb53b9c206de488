import Foundation
import HealthETLCore
import HealthETLPipeline

/// Progress of a live run on standard error: one line rewritten in place on a terminal, a
/// plain line every few seconds otherwise.
final class LaneProgress: @unchecked Sendable {
    private let enabled: Bool
    private let terminal = isatty(STDERR_FILENO) == 1
    private var lastPlain = -1.0
    private var drewLine = false

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func report(_ summary: LaneRunSummary) {
        guard enabled else { return }
        let line =
            "simulated \(summary.simulatedThrough.iso8601(utcOffsetSeconds: 0))  "
            + Lane.allCases.map { "\($0.rawValue) \(summary.tally($0).records)" }.joined(separator: "  ")
            + "  tombstones \(summary.tally(.change).tombstones)"
        if terminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
            drewLine = true
        } else if summary.elapsedSeconds - lastPlain >= 5 {
            lastPlain = summary.elapsedSeconds
            printError(line)
        }
    }

    func finish() {
        if drewLine { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
