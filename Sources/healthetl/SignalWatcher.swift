import Dispatch
import Foundation
import HealthETLPipeline

/// Turns SIGINT and SIGTERM into a stop request for a long run, so it can commit what it has
/// and exit cleanly; a second signal ends the process at once.
final class SignalWatcher {
    private var sources: [any DispatchSourceSignal] = []

    /// - Parameter drainTimeout: when given, the process exits 0 this long after the first
    ///   signal if the run has not ended by then (what it had not committed is rolled back).
    init(stop: StopSignal, drainTimeout: Duration? = nil) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.isRaised { exit(128 + number) }
                stop.raise()
                printError("stopping: committing what is queued (signal again to quit at once)")
                if let drainTimeout {
                    DispatchQueue.global().asyncAfter(deadline: .now() + drainTimeout.seconds) {
                        printError(
                            "stopping: the drain timeout passed; what was not committed is left for the next run")
                        exit(0)
                    }
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) }
    }
}
