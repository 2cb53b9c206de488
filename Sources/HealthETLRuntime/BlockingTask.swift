import Dispatch
import Synchronization

/// Runs async work to completion from a thread of its own (tier 1 while a live ingest holds the
/// caller's), rethrowing its error. Never call it from a task: it blocks the thread it runs on.
enum BlockingTask {
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            finished.signal()
        }
        finished.wait()
        // The task stored a result before signalling.
        return try result.withLock { $0! }.get()
    }
}
