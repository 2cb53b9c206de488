import Foundation

/// One stage of the import pipeline on a thread of its own: jobs are processed strictly in
/// order, at most `capacity` wait, and the first failure stops the stage — nothing queued
/// behind a failed job is processed, so no later cursor can pass a lost batch.
final class BackgroundStage<Job>: @unchecked Sendable {
    private let capacity: Int
    private let process: (Job) throws -> Void
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var busy = false
    private var failure: (any Error)?
    private var stopped = false

    init(name: String, capacity: Int = 2, process: @escaping (Job) throws -> Void) {
        self.capacity = capacity
        self.process = process
        // The thread keeps the stage alive until `stop()` lets it finish.
        let thread = Thread { [self] in self.work() }
        thread.name = name
        thread.start()
    }

    /// Queues a job, waiting while the queue is full. Throws the stage's first failure.
    func submit(_ job: Job) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity, failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append(job)
        condition.broadcast()
    }

    /// Whether a job submitted now would be queued without waiting.
    var hasRoom: Bool {
        condition.lock()
        defer { condition.unlock() }
        return queue.count < capacity
    }

    /// Waits until every queued job is processed. Throws the stage's first failure.
    func drain() throws {
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || busy, failure == nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Lets the thread end once it is idle.
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
            let job = queue.removeFirst()
            busy = true
            condition.unlock()

            let outcome = Result { try process(job) }

            condition.lock()
            busy = false
            if case .failure(let error) = outcome {
                failure = error
                queue.removeAll()
            }
            condition.broadcast()
            condition.unlock()
        }
    }
}
