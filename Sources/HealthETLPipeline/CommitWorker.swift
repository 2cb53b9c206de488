import Foundation
import HealthETLCore
import HealthETLStore

/// Commits batches on a thread of its own, so reading and normalizing the next batch overlaps
/// with SQLite writing this one.
///
/// The store is used by the worker thread only while batches are outstanding; `drain()` hands it
/// back, idle, to the caller. Batches commit strictly in order, and after a failure nothing
/// queued behind it is committed (its cursor would otherwise pass the lost batch).
final class CommitWorker<Context>: @unchecked Sendable {
    /// A finished commit with what the caller attached to its batch.
    struct Completion {
        var result: CommitResult
        var context: Context
    }

    private let store: Store
    private let capacity: Int
    private let condition = NSCondition()
    private var queue: [(CommitBatch, Context)] = []
    private var busy = false
    private var completions: [Completion] = []
    private var failure: (any Error)?
    private var stopped = false

    /// - Parameter capacity: batches that may wait behind the one being written.
    init(store: Store, capacity: Int = 2) {
        self.store = store
        self.capacity = capacity
        // The thread keeps the worker alive until `stop()` lets it finish.
        let thread = Thread { [self] in self.work() }
        thread.name = "healthetl-store-writer"
        thread.start()
    }

    /// Queues a batch, waiting while the queue is full. Throws the first commit failure.
    func submit(_ batch: CommitBatch, context: Context) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity, failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append((batch, context))
        condition.broadcast()
    }

    /// Finished commits since the last call, in commit order.
    func takeCompletions() -> [Completion] {
        condition.lock()
        defer { condition.unlock() }
        let taken = completions
        completions.removeAll()
        return taken
    }

    /// Waits until every queued batch is committed. Throws the first commit failure.
    func drain() throws {
        condition.lock()
        defer { condition.unlock() }
        while (!queue.isEmpty || busy), failure == nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Stops the thread once it is idle; further submissions are refused.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty, !stopped { condition.wait() }
            if queue.isEmpty {
                condition.unlock()
                return
            }
            let (batch, context) = queue.removeFirst()
            busy = true
            condition.unlock()

            let outcome = Result { try store.commit(batch) }

            condition.lock()
            busy = false
            switch outcome {
            case .success(let result):
                completions.append(Completion(result: result, context: context))
            case .failure(let error):
                failure = error
                queue.removeAll()
            }
            condition.broadcast()
            condition.unlock()
        }
    }
}
