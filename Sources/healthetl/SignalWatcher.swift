import Dispatch
import Foundation
import HealthETLPipeline

/// Turns SIGINT and SIGTERM into a stop request for a long run, so it can commit what it has
/// and exit cleanly; a second signal ends the process at once.
final class SignalWatcher {
    private var sources: [any DispatchSourceSignal] = []

    init(stop: StopSignal) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.isRaised { exit(128 + number) }
                stop.raise()
                printError("stopping: committing what is queued (signal again to quit at once)")
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
