import Logging
import ServiceLifecycle

/// Recomputes stale projections in the background, a few keys at a time so batches keep
/// flowing in between; reads refresh what they need themselves, so this only keeps them fast.
struct ProjectionRefresher: Service {
    let storage: any CollectorStorage
    let logger: Logger
    /// Keys per storage call.
    let step = 32
    let pause: Duration = .seconds(1)

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                while try await storage.refreshProjections(limit: step) > 0, !Task.isShuttingDownGracefully {}
            } catch {
                logger.error("projection refresh failed", metadata: ["error.type": "\(type(of: error))"])
            }
            try? await Task.sleep(for: pause)
        }
    }
}
