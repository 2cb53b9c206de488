import ArgumentParser
import HealthETLCore

/// `healthetl metrics`: the metric catalog.
struct MetricsCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "List the metric catalog: ids, kinds, canonical units, tiers, source identifiers.",
        discussion: """
            --coverage measures the catalog against every type each source format can write \
            (HealthKit's quantity and category types, Health Connect's record types, Health Auto Export's \
            metrics, HealthKit's workout activity types) and names any it does not map.
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(help: "Print, per source format, how many of its types the catalog maps and which it does not.")
    var coverage = false

    func run() throws {
        let catalog = try global.loadCatalog()
        if coverage {
            try printCoverage(of: catalog)
            return
        }
        if json {
            try JSONOutput.print(MetricsReport(catalog: catalog))
            return
        }
        var table = TextTable("ID", "KIND", "UNIT", "AGGREGATION", "TIER", "HEALTHKIT")
        for metric in catalog.metrics {
            table.add(
                metric.id, metric.kind.rawValue, catalog.reportedUnit(of: metric) ?? "-",
                metric.aggregation.rawValue, String(metric.tier), healthKitColumn(metric))
        }
        print(table.rendered)
        print("\n\(catalog.metrics.count) metrics")
    }

    private func healthKitColumn(_ metric: MetricDefinition) -> String {
        guard let first = metric.healthKit.first else { return "-" }
        return metric.healthKit.count == 1 ? first : "\(first) (+\(metric.healthKit.count - 1))"
    }

    private func printCoverage(of catalog: MetricCatalog) throws {
        let coverage: CatalogCoverage
        do {
            coverage = CatalogCoverage(catalog: catalog, lists: try SourceTypeList.bundled())
        } catch {
            throw CommandFailure(error)
        }
        if json {
            try JSONOutput.print(coverage)
            return
        }
        var table = TextTable("SOURCE FORMAT", "MAPPED", "NOT MAPPED")
        for format in coverage.formats {
            table.add(format.title, "\(format.mapped)/\(format.total)", String(format.unmapped.count))
        }
        print(table.rendered)
        for format in coverage.formats where !format.isComplete {
            print("\n\(format.title) not mapped:")
            for name in format.unmapped { print("  \(name)") }
        }
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
            case healthKit = "healthkit"
            case healthConnect = "health_connect"
            case healthAutoExport = "hae"
            case loinc, ucum
        }

        func encode(to encoder: any Encoder) throws {
            try definition.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            // Every entry has the source names and codes, empty or null where there are none,
            // so scripts need not test for absent keys.
            try container.encode(definition.healthKit, forKey: .healthKit)
            try container.encode(definition.healthConnect, forKey: .healthConnect)
            try container.encode(definition.healthAutoExport, forKey: .healthAutoExport)
            try container.encode(definition.loinc, forKey: .loinc)
            try container.encode(definition.ucumUnit, forKey: .ucum)
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
