import HealthETLCollectorStorage
import Logging
import ServiceLifecycle

/// Recomputes stale projections in the background, a few keys at a time so batches keep
/// flowing in between; reads refresh what they need themselves, so this only keeps them fast.
///
/// Each step waits until no batch is being written (`IngestActivity`), unless stale keys have
/// waited `longestWait`: a client that uploads without end still sees fresh projections.
struct ProjectionRefresher: Service {
    let storage: any CollectorStorage
    let activity: IngestActivity
    let logger: Logger
    /// Keys per storage call.
    let step = 32
    let pause: Duration = .seconds(1)
    let yieldPause: Duration = .milliseconds(20)
    let longestWait: Duration = .seconds(30)

    func run() async throws {
        let clock = ContinuousClock()
        // When no key was left stale.
        var settled = clock.now
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                while !Task.isShuttingDownGracefully && !Task.isCancelled {
                    if activity.isWriting, clock.now - settled < longestWait {
                        try? await Task.sleep(for: yieldPause)
                        continue
                    }
                    guard try await storage.refreshProjections(limit: step) > 0 else { break }
                }
                settled = clock.now
            } catch {
                logger.error("projection refresh failed", metadata: ["error.type": "\(type(of: error))"])
            }
            try? await Task.sleep(for: pause)
        }
    }
}
