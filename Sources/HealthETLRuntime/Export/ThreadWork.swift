import Foundation

/// Work started on a thread of its own, its result collected when needed: two independent
/// passes over the store then use both cores.
final class ThreadWork<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written once by the thread before `done` is signalled, read only after waiting on it.
    private var result: Result<Value, any Error>?

    init(name: String, _ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            result = Result(catching: work)
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits for the work and returns what it returned, or throws what it threw.
    func value() throws -> Value {
        done.wait()
        done.signal()  // a second call returns at once
        return try result!.get()
    }
}
