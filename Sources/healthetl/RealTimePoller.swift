import Foundation
import HealthETLPipeline
import Synchronization

/// During `simulate --follow`: sends the real-time tier every couple of seconds on its own
/// thread (with its own store connection) while the lanes commit, and once more at the end.
final class RealTimePoller: Sendable {
    private let upload: RealTimeUpload
    private let state: Mutex<(mark: Int64, report: UploadReport, running: Bool)>
    private let done = DispatchSemaphore(value: 0)
    static let interval: Double = 2

    init(upload: RealTimeUpload, afterRow row: Int64, live: Bool) {
        self.upload = upload
        state = Mutex((row, UploadReport(), live))
        guard live else {
            done.signal()
            return
        }
        Thread.detachNewThread { [self] in
            while state.withLock({ $0.running }) {
                Thread.sleep(forTimeInterval: Self.interval)
                sendOnce()
            }
            done.signal()
        }
    }

    private func sendOnce() {
        let mark = state.withLock { $0.mark }
        let (next, report) = upload.send(afterRow: mark)
        state.withLock { current in
            current.mark = next
            current.report = current.report + report
        }
    }

    /// Stops the polling, sends what is left, and says what the tier did.
    func finish() {
        state.withLock { $0.running = false }
        done.wait()
        sendOnce()
        RealTimeUpload.describe(state.withLock { $0.report })
    }
}
