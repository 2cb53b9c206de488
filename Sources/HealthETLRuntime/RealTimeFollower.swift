import Foundation
import HealthETLCore
import HealthETLPipeline
import Synchronization

/// Tier 1 while a live ingest runs (`simulate --follow`): sends on its own thread (with its own
/// store connection), woken by every hot-lane commit rather than on a timer; commits that land
/// while a send is running are sent by the next one. Once more at the end.
public final class RealTimeFollower: Sendable {
    private let sender: RealTimeSender
    private let state: Mutex<(mark: Int64, report: UploadReport, running: Bool, due: Bool)>
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Called with what went wrong when a send fails (it is left to `upload`).
    private let failed: @Sendable (any Error) -> Void

    /// - Parameter live: whether to follow commits; otherwise only `finish()` sends.
    public init(
        sender: RealTimeSender, afterSequence sequence: Int64, live: Bool,
        failed: @escaping @Sendable (any Error) -> Void
    ) {
        self.failed = failed
        self.sender = sender
        state = Mutex((sequence, UploadReport(), live, false))
        guard live else {
            done.signal()
            return
        }
        Thread.detachNewThread { [self] in
            while true {
                wake.wait()
                let (running, due) = state.withLock { current in
                    defer { current.due = false }
                    return (current.running, current.due)
                }
                if due { sendOnce() }
                if !running { break }
            }
            done.signal()
        }
    }

    /// A hot batch was committed: send its tier-1 samples soon.
    public func committed(_ lane: Lane) {
        guard lane == .hot else { return }
        let wasDue = state.withLock { current in
            defer { current.due = true }
            return current.due
        }
        if !wasDue { wake.signal() }
    }

    private func sendOnce() {
        let mark = state.withLock { $0.mark }
        let sender = sender
        let next: Int64
        let report: UploadReport
        do {
            (next, report) = try BlockingTask.run { try await sender.send(afterSequence: mark) }
        } catch {
            failed(error)
            return
        }
        state.withLock { current in
            current.mark = next
            current.report = current.report + report
        }
    }

    /// Stops following and sends what is left.
    /// - Returns: what the tier did over the whole run.
    public func finish() -> UploadReport {
        state.withLock { $0.running = false }
        wake.signal()
        done.wait()
        sendOnce()
        return state.withLock { $0.report }
    }
}
