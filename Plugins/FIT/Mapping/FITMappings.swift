import HealthETLCore

/// The catalog's `fit` mappings by identifier: which FIT fields become which metric's records,
/// in which unit, and what an enum field's numbers mean.
struct FITMappings: Sendable {
    private let fields: [String: FITField]

    init(catalog: MetricCatalog) {
        var fields: [String: FITField] = [:]
        for metric in catalog.metrics {
            for field in metric.fit { fields[field.identifier] = field }
        }
        self.fields = fields
    }

    /// The mapping of `message.field` (recorded in `sport`, when the mapping depends on it).
    func field(_ message: String, _ field: String, sport: String? = nil) -> FITField? {
        if let sport, let specific = fields[FITField.identifier(message: message, field: field, sport: sport)] {
            return specific
        }
        return fields[FITField.identifier(message: message, field: field)]
    }
}
