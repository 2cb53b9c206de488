import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import Synchronization

/// During `simulate --follow`: tier 1 on its own thread (with its own store connection), woken
/// by every hot-lane commit rather than on a timer; commits that land while a send is running
/// are sent by the next one. Once more at the end, then it says what the tier did.
final class RealTimePoller: Sendable {
    private let sender: RealTimeSender
    private let state: Mutex<(mark: Int64, report: UploadReport, running: Bool, due: Bool)>
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init(sender: RealTimeSender, afterRow row: Int64, live: Bool) {
        self.sender = sender
        state = Mutex((row, UploadReport(), live, false))
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
    func committed(_ lane: Lane) {
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
            (next, report) = try BlockingTask.run { try await sender.send(afterRow: mark) }
        } catch {
            printError("real-time upload failed: \(CommandFailure(error).message); `healthetl upload` sends it later")
            return
        }
        state.withLock { current in
            current.mark = next
            current.report = current.report + report
        }
    }

    /// Stops following, sends what is left, and says what the tier did.
    func finish() {
        state.withLock { $0.running = false }
        wake.signal()
        done.wait()
        sendOnce()
        RealTimeUpload.describe(state.withLock { $0.report })
    }
}
