import Foundation
import Synchronization

/// A server's standard error, read on its own thread from the start so the server never waits
/// on a full pipe; `text` is what arrived so far, `finished()` all of it once the server exited.
public final class ServerLog: Sendable {
    private let received = Mutex(Data())
    private let ended = DispatchSemaphore(value: 0)

    init(reading pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                received.withLock { $0.append(chunk) }
            }
            ended.signal()
        }
    }

    public var text: String { received.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Everything the server wrote, once its end of the pipe is closed (after it exited).
    public func finished() -> String {
        ended.wait()
        ended.signal()
        return text
    }
}
