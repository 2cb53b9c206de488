/// Asks a sink many things with a few on the wire at once, and hands the answers back in the
/// order asked: one at a time, the sink worked while this side waited and then the other way round.
enum OrderedRequests {
    /// Calls `ask` for `0..<count`, at most `inFlight` at once, and `receive` with each answer in
    /// index order, on the caller's task (where the store may be written). The first error thrown
    /// by `ask` or `receive` ends the run once the requests on the wire are back.
    static func run<Answer: Sendable>(
        count: Int, inFlight: Int, ask: @escaping @Sendable (Int) async throws -> Answer,
        receive: (Int, Answer) throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: (Int, Answer).self) { group in
            var asked = 0
            func askNext() {
                let index = asked
                group.addTask { (index, try await ask(index)) }
                asked += 1
            }
            while asked < min(count, inFlight) { askNext() }
            var waiting: [Int: Answer] = [:]
            var received = 0
            while let (index, answer) = try await group.next() {
                waiting[index] = answer
                while let next = waiting.removeValue(forKey: received) {
                    try receive(received, next)
                    received += 1
                }
                if asked < count { askNext() }
            }
        }
    }
}
