import HealthETLCore

/// The catalog's Health Connect mappings, by table: which columns of which table become which
/// metric, in which stored unit. The reader is driven by it, so a record type the catalog maps
/// needs no code of its own unless its shape does (series, stages, exercise).
struct HealthConnectTableMap {
    /// One mapped column.
    struct Column {
        /// What the raw record is called: `Record.field`, a name the catalog answers to.
        let type: String
        let field: HealthConnectField
    }

    /// Table → its mapped columns, in catalog order.
    let tables: [String: [Column]]

    init(catalog: MetricCatalog) {
        var tables: [String: [Column]] = [:]
        for metric in catalog.metrics {
            for field in metric.healthConnect {
                // A mapping without a field is a record whose presence is the sample (a bleeding event).
                guard let table = field.table else { continue }
                tables[table, default: []].append(Column(type: field.identifier, field: field))
            }
        }
        self.tables = tables
    }
}
