import Foundation
import HealthETLCore
import MCP

/// The metric catalog as resources: the whole (`healthetl://catalog`) and each metric
/// (`healthetl://catalog/heart_rate`), so a client can learn names, units and what each
/// figure means. Only the metrics the tools may read.
struct CatalogResources: Sendable {
    struct Entry: Encodable {
        let id: String
        let name: String
        let kind: String
        let aggregation: String
        let unit: String?
        let dailyUnit: String?
        let aliases: [String]
        let loinc: String?
        let plausible: [Double?]?

        private enum CodingKeys: String, CodingKey {
            case id, name, kind, aggregation, unit, aliases, loinc, plausible
            case dailyUnit = "daily_unit"
        }
    }

    static let scheme = "healthetl://catalog"
    let access: MetricAccess

    private var metrics: [MetricDefinition] {
        access.catalog.metrics.filter { access.permits($0.id) }.sorted { $0.id < $1.id }
    }

    /// One page: the whole catalog first, then one resource per metric; the cursor is the offset
    /// of the page's first entry.
    func list(cursor: String?, pageSize: Int) throws -> ListResources.Result {
        let all =
            [
                Resource(
                    name: "catalog", uri: Self.scheme, title: "The metric catalog",
                    description: "Every metric: names, kinds, units, LOINC codes", mimeType: "application/json")
            ]
            + metrics.map {
                Resource(name: $0.id, uri: "\(Self.scheme)/\($0.id)", title: $0.name, mimeType: "application/json")
            }
        let offset: Int
        if let cursor {
            guard let number = Int(cursor), (0..<all.count).contains(number) else {
                throw MCPError.invalidParams("unknown cursor \(QuotedName.of(cursor))")
            }
            offset = number
        } else {
            offset = 0
        }
        let end = min(offset + pageSize, all.count)
        return ListResources.Result(
            resources: Array(all[offset..<end]), nextCursor: end < all.count ? String(end) : nil)
    }

    func read(_ uri: String) throws -> ReadResource.Result {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body: Data
        if uri == Self.scheme {
            body = try encoder.encode(metrics.map(entry))
        } else if uri.hasPrefix(Self.scheme + "/"),
            let metric = access.catalog.metric(named: String(uri.dropFirst(Self.scheme.count + 1))),
            access.permits(metric.id)
        {
            body = try encoder.encode(entry(metric.definition))
        } else {
            throw MCPError.invalidParams("no resource \(QuotedName.of(uri)); resources/list names them")
        }
        return ReadResource.Result(
            contents: [.text(String(decoding: body, as: UTF8.self), uri: uri, mimeType: "application/json")])
    }

    private func entry(_ metric: MetricDefinition) -> Entry {
        Entry(
            id: metric.id, name: metric.name, kind: metric.kind.rawValue, aggregation: metric.aggregation.rawValue,
            unit: metric.unit, dailyUnit: access.catalog.reportedUnit(of: metric), aliases: metric.aliases,
            loinc: metric.loinc, plausible: metric.plausible.map { [$0.min, $0.max] })
    }
}
