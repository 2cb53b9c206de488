import HealthETLCore

extension Store {
    /// Replaces what `source` says of its own source order per metric (a phone's app priority).
    public func replaceSourcePriority(source: String, sourcesByMetric: [String: [String]]) throws {
        try connection.writeTransaction {
            try prepared("DELETE FROM source_priorities WHERE source = ?1").run(.text(source))
            let insert = try prepared(
                "INSERT INTO source_priorities(source, metric, position, source_name) VALUES (?1, ?2, ?3, ?4)")
            for (metric, names) in sourcesByMetric.sorted(by: { $0.key < $1.key }) {
                for (position, name) in names.enumerated() {
                    try insert.run(.text(source), .text(metric), .integer(Int64(position)), .text(name))
                }
            }
        }
    }

    /// Every source's order of sources per metric, merged in source-name order: metric id →
    /// source names, best first.
    public func sourcePriorities() throws -> [String: [String]] {
        let statement = try prepared(
            "SELECT metric, source_name FROM source_priorities ORDER BY metric, source, position")
        var priorities: [String: [String]] = [:]
        while try statement.step() {
            let metric = statement.text(0) ?? ""
            let name = statement.text(1) ?? ""
            if priorities[metric]?.contains(name) != true { priorities[metric, default: []].append(name) }
        }
        return priorities
    }
}
