import HealthETLCore
import HealthETLPipeline
import HealthETLStore

/// The change feed as the commands use it: a catch-up at the end of `upload` and `sync`, and
/// `healthetl follow`'s long run.
public enum FeedSession {
    /// Catches the store's projections up with the sink's feed; a failure is reported, not thrown:
    /// the upload it follows succeeded, and the next run catches up again.
    static func catchUp(store: Store, sink: any SampleSink, endpoint: String, clock: Clock) async throws
        -> FeedReport?
    {
        guard type(of: sink).capabilities.contains(.changeFeed) else { return nil }
        do {
            return try await FeedFollower(store: store, sink: sink, endpoint: endpoint, clock: clock).catchUp()
        } catch let error as DeliveryError {
            var report = FeedReport()
            report.notFollowed = "the collector's change feed did not answer: \(error)"
            return report
        }
    }

    /// Follows the sink's feed until `stop` is raised.
    public static func follow(
        store directory: StoreDirectory, sink choice: SinkChoice, stop: StopSignal, clock: Clock = .system,
        onUpdate: (FeedFollowUpdate) -> Void
    ) async throws {
        let sink = try choice.make()
        guard type(of: sink).capabilities.contains(.changeFeed) else {
            try await sink.shutdown()
            throw FeedSessionError("the \(type(of: sink).name) sink keeps no change feed to follow")
        }
        let store = try Store(directory: directory, clock: clock)
        let follower = FeedFollower(
            store: store, sink: sink, endpoint: try choice.settings.text("endpoint") ?? "", clock: clock)
        await follower.follow(stop: stop, onUpdate: onUpdate)
        try await sink.shutdown()
    }
}

/// Why `follow` cannot start.
public struct FeedSessionError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
