import HealthETLCore

/// The catalog's `fit` mappings: which FIT fields become which metric's records, in which unit,
/// and what an enum field's numbers mean. Looked up for every value read, so by the names as
/// they are (short strings hash without allocating), never by a built identifier.
struct FITMappings: Sendable {
    /// One mapping, with the identifier its records carry made once.
    struct Target: Sendable {
        let identifier: String
        let unit: String?
        let values: [String: String]
    }

    private struct Key: Hashable {
        let message: String
        let field: String
        let sport: String?
    }

    private let targets: [Key: Target]

    init(catalog: MetricCatalog) {
        var targets: [Key: Target] = [:]
        for metric in catalog.metrics {
            for field in metric.fit {
                targets[Key(message: field.message, field: field.field, sport: field.sport)] = Target(
                    identifier: field.identifier, unit: field.unit, values: field.values)
            }
        }
        self.targets = targets
    }

    /// The mapping of `message.field` (recorded in `sport`, when the mapping depends on it).
    func field(_ message: String, _ field: String, sport: String? = nil) -> Target? {
        if let sport, let specific = targets[Key(message: message, field: field, sport: sport)] { return specific }
        return targets[Key(message: message, field: field, sport: nil)]
    }
}
