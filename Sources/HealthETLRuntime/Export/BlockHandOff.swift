import Foundation

/// Blocks (of values, or anything a sender hands over at once) passed from one thread to another through a queue of bounded length: the
/// sender waits while it is full, the receiver while it is empty. Either side can end it: the
/// sender with `finish` (and the error it stopped on, if any), the receiver with `cancel`, which
/// makes the sender's next `send` return false.
final class BlockHandOff<Block: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var blocks: [Block] = []
    private let capacity: Int
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Queues a block, waiting for room. Returns false when the receiver cancelled.
    func send(_ block: Block) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while blocks.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        blocks.append(block)
        condition.broadcast()
        return true
    }

    /// No more blocks: after the queued ones, `receive` returns nil, or throws `error`.
    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        failure = error
        condition.broadcast()
    }

    /// The next block; nil when the sender finished and every block was received.
    /// - Throws: the error the sender finished with.
    func receive() throws -> Block? {
        condition.lock()
        defer { condition.unlock() }
        while blocks.isEmpty && !finished { condition.wait() }
        if !blocks.isEmpty {
            condition.broadcast()
            return blocks.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Whether the receiver stopped: a sender between blocks asks now and then.
    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// The receiver stops: the sender's waiting or next `send` returns false.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        condition.broadcast()
    }
}
