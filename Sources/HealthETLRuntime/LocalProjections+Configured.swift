import HealthETLCore
import HealthETLPipeline
import HealthETLStore

extension LocalProjections {
    /// The projections as this store computes them: the configured source priority, then the
    /// orders its sources gave (what `projections --local`, `export --daily` and `report` use).
    static func configured(for store: Store, catalog: MetricCatalog) throws -> LocalProjections {
        let configuration = try StoreConfiguration.load(store: store.directory.path)
        return LocalProjections(
            catalog: catalog, priority: SourcePriority(preferred: configuration.sourcePriority ?? []),
            sourcesByMetric: try store.sourcePriorities())
    }
}
