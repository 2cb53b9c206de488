import HealthETLCollectorStorage
import HealthETLCore
import Logging
import ServiceLifecycle

/// Ticks the change hub every second (heartbeats, polling, stalled writes), prunes changes older
/// than the retention window every hour, and ends every stream when the server shuts down.
struct ChangeFeedService: Service {
    let storage: any CollectorStorage
    let hub: ChangeHub
    let retention: Duration
    let now: @Sendable () -> Instant
    let logger: Logger
    let tick: Duration = .seconds(1)
    /// Hourly, or twice per retention window when that is shorter.
    var pruneEvery: Duration { min(.seconds(3600), max(tick, retention / 2)) }

    func run() async throws {
        let clock = ContinuousClock()
        var pruned: ContinuousClock.Instant?
        await withGracefulShutdownHandler {
            while !Task.isCancelled && !Task.isShuttingDownGracefully {
                hub.tick()
                if pruned.map({ clock.now - $0 >= pruneEvery }) ?? true {
                    pruned = clock.now
                    let cutoff = Instant(
                        millisecondsSinceEpoch: now().millisecondsSinceEpoch - Int64(retention.components.seconds)
                            * 1000)
                    do {
                        try await storage.pruneChanges(before: cutoff)
                    } catch {
                        logger.error("change feed pruning failed", metadata: ["error.type": "\(type(of: error))"])
                    }
                }
                try? await Task.sleep(for: tick)
            }
        } onGracefulShutdown: {
            hub.close()
        }
        hub.close()
    }
}
