import Synchronization

/// How many batches the uploading clients have had answered so far.
final class AnswerCount: Sendable {
    private let answered = Mutex(0)
    var count: Int { answered.withLock { $0 } }
    func add() { answered.withLock { $0 += 1 } }
}
