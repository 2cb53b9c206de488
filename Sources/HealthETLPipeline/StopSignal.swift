import Synchronization

/// Set once to ask a long run to stop: by a signal handler's thread, or by a failure.
public final class StopSignal: Sendable {
    private let raised = Atomic<Bool>(false)

    public init() {}

    public func raise() { raised.store(true, ordering: .sequentiallyConsistent) }

    public var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }
}
