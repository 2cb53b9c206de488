/// Runs `body`, failing with `DeadlinePassed` if it has not finished within `seconds`: a test that
/// waits for something that never comes fails instead of hanging the suite.
public func withDeadline<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws
    -> T
{
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            throw DeadlinePassed(seconds: seconds)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw DeadlinePassed(seconds: seconds) }
        return first
    }
}

/// What `withDeadline` throws when the time is up.
public struct DeadlinePassed: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "not done within \(seconds) s" }
}

/// Polls `condition` every `interval` for up to `seconds`; whether it held. For a state another
/// process reaches in its own time: the test waits on the condition, never on a fixed sleep.
public func eventually(
    within seconds: Double, every interval: Duration = .milliseconds(50), _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    repeat {
        if try await condition() { return true }
        try await Task.sleep(for: interval)
    } while ContinuousClock.now < deadline
    return try await condition()
}
