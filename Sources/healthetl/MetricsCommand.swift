import ArgumentParser
import HealthETLCore

/// `healthetl metrics`: the metric catalog.
struct MetricsCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "List the metric catalog: ids, kinds, canonical units, tiers, source identifiers.")

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func run() throws {
        let catalog = try global.loadCatalog()
        if json {
            try JSONOutput.print(MetricsReport(catalog: catalog))
            return
        }
        var table = TextTable("ID", "KIND", "UNIT", "AGGREGATION", "TIER", "HEALTHKIT")
        for metric in catalog.metrics {
            table.add(
                metric.id, metric.kind.rawValue, catalog.reportedUnit(of: metric) ?? "-",
                metric.aggregation.rawValue, String(metric.tier), metric.healthKit ?? "-")
        }
        print(table.rendered)
        print("\n\(catalog.metrics.count) metrics")
    }
}

/// The `metrics --json` document: each definition as in the catalog file, plus the reported unit
/// and the accepted unit spellings or category values.
struct MetricsReport: Encodable {
    struct Entry: Encodable {
        var definition: MetricDefinition
        var reportedUnit: String?
        var acceptedUnits: [String: UnitConversion]?
        var categoryValues: [String]?

        enum CodingKeys: String, CodingKey {
            case acceptedUnits = "accepted_units"
            case categoryValues = "category_values"
            case reportedUnit = "unit"
        }

        func encode(to encoder: any Encoder) throws {
            try definition.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(reportedUnit, forKey: .reportedUnit)
            try container.encodeIfPresent(acceptedUnits, forKey: .acceptedUnits)
            try container.encodeIfPresent(categoryValues, forKey: .categoryValues)
        }
    }

    var count: Int
    var metrics: [Entry]

    init(catalog: MetricCatalog) {
        metrics = catalog.metrics.map { definition in
            let resolved = catalog.metric(named: definition.id)
            return Entry(
                definition: definition, reportedUnit: catalog.reportedUnit(of: definition),
                acceptedUnits: definition.kind.isQuantity ? resolved?.conversions : nil,
                categoryValues: definition.kind == .category
                    ? definition.category.flatMap { catalog.document.categories[$0]?.canonicalValues } : nil)
        }
        count = metrics.count
    }
}
