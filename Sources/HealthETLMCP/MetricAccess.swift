import HealthETLCore

/// Which metrics the tools may read: the catalog's, narrowed by `--metrics` when given. A name
/// outside them gets the closest names it could have meant.
public struct MetricAccess: Sendable {
    public let catalog: MetricCatalog
    /// Metric ids the tools may read; `nil` for all.
    public let allowed: Set<String>?
    /// Whether workouts may be read: always without an allow-list, else when it names `workouts`.
    public let permitsWorkouts: Bool

    /// - Throws: `ToolError` naming an allow-list entry the catalog lacks.
    public init(catalog: MetricCatalog, allowed names: [String]? = nil) throws {
        self.catalog = catalog
        guard let names else {
            allowed = nil
            permitsWorkouts = true
            return
        }
        permitsWorkouts = names.contains(Self.workouts)
        var ids: Set<String> = []
        for name in names where name != Self.workouts {
            guard let metric = catalog.metric(named: name) else {
                throw ToolError("--metrics names \(name), which the catalog lacks; `healthetl metrics` lists them")
            }
            ids.insert(metric.id)
        }
        allowed = ids
    }

    /// The allow-list's name for workouts, which are no catalog metric.
    public static let workouts = "workouts"

    public func permits(_ metric: String) -> Bool {
        allowed?.contains(metric) ?? true
    }

    /// The catalog's definition of a name (an id, an alias or a source's type name) the tools may read.
    func resolve(_ name: String) throws -> MetricDefinition {
        guard let metric = catalog.metric(named: name), permits(metric.id) else {
            let suggestions = closest(to: name)
            throw ToolError(
                "no metric named \(QuotedName.of(name))"
                    + (allowed == nil ? "" : " is exposed here")
                    + (suggestions.isEmpty ? "" : "; the closest are \(suggestions.joined(separator: ", "))")
                    + "; list_metrics shows the metrics with data")
        }
        return metric.definition
    }

    /// Up to five permitted ids nearest to `name` by edit distance (ties by name), none further
    /// than half the name's length.
    func closest(to name: String, count: Int = 5) -> [String] {
        let wanted = Array(name.lowercased().prefix(64).utf8)
        let reach = max(3, wanted.count / 2)
        return catalog.metrics.map(\.id).filter(permits)
            .map { (id: $0, distance: Self.editDistance(wanted, Array($0.utf8))) }
            .filter { $0.distance <= reach }
            .sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
            .prefix(count).map(\.id)
    }

    /// Levenshtein distance over bytes, one row at a time.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            for (j, y) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
