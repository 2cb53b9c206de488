import Foundation

/// The validated metric catalog: every metric by id and by every name a source uses for it.
public struct MetricCatalog: Sendable {
    /// The catalog as a document, in file order (bundled metrics first, then user additions).
    public private(set) var document: CatalogDocument
    private var byIdentifier: [String: ResolvedMetric] = [:]

    /// Builds a catalog from a document, checking every rule a usable catalog must meet.
    /// - Parameter file: names the file in error messages.
    /// - Throws: `CatalogError` naming the entry at fault.
    public init(document: CatalogDocument, file: String) throws {
        self.document = document
        try validate(file: file)
        index()
    }

    /// Decodes and validates a catalog file's bytes.
    public init(json: Data, file: String) throws {
        try self.init(document: try MetricCatalog.decode(json, file: file), file: file)
    }

    public var metrics: [MetricDefinition] { document.metrics }

    /// The metric a source names by id, HealthKit identifier, Health Connect type or alias.
    public func metric(named identifier: String) -> ResolvedMetric? {
        byIdentifier[identifier]
    }

    /// A catalog with `overlay` merged in: a metric with a known id replaces the old one whole;
    /// unit sets and category sets of a known name gain the overlay's spellings.
    /// - Throws: `CatalogError` if the result breaks a rule, or a set's canonical unit changes.
    public func merging(_ overlay: CatalogDocument, file: String) throws -> MetricCatalog {
        guard overlay.format == CatalogDocument.currentFormat else {
            throw CatalogError(
                file: file, location: "format",
                problem: "format \(overlay.format) is not supported (expected \(CatalogDocument.currentFormat))")
        }
        var merged = document
        for (name, set) in overlay.unitSets.sorted(by: { $0.key < $1.key }) {
            if let existing = merged.unitSets[name] {
                guard existing.canonical == set.canonical else {
                    throw CatalogError(
                        file: file, location: "unit_sets.\(name).canonical",
                        problem: "cannot change the canonical unit from \(existing.canonical) to "
                            + "\(set.canonical): stored values are in \(existing.canonical)")
                }
                merged.unitSets[name]?.units.merge(set.units) { _, new in new }
            } else {
                merged.unitSets[name] = set
            }
        }
        for (name, set) in overlay.categories {
            merged.categories[name, default: CategorySet(values: [:])].values.merge(set.values) {
                _, new in new
            }
        }
        for metric in overlay.metrics {
            if let index = merged.metrics.firstIndex(where: { $0.id == metric.id }) {
                merged.metrics[index] = metric
            } else {
                merged.metrics.append(metric)
            }
        }
        return try MetricCatalog(document: merged, file: file)
    }

    /// Decodes a catalog document, turning decoding errors into `CatalogError`s with a path.
    public static func decode(_ json: Data, file: String) throws -> CatalogDocument {
        do {
            return try JSONDecoder().decode(CatalogDocument.self, from: json)
        } catch let error as DecodingError {
            throw CatalogError(decoding: error, file: file)
        } catch {
            throw CatalogError(file: file, location: "", problem: "is not valid JSON (\(error))")
        }
    }

    private mutating func index() {
        var metricsByRecord: [String: Set<String>] = [:]
        for metric in document.metrics {
            let conversions = metric.unitSet.flatMap { document.unitSets[$0]?.units } ?? [:]
            var values: [String: String] = [:]
            if let set = metric.category.flatMap({ document.categories[$0] }) {
                values = set.values
                for canonical in set.values.values { values[canonical] = canonical }
            }
            let resolved = ResolvedMetric(
                definition: metric, conversions: conversions, categoryValues: values)
            for identifier in metric.identifiers { byIdentifier[identifier] = resolved }
            for field in metric.healthConnect { metricsByRecord[field.record, default: []].insert(metric.id) }
        }
        // A Health Connect record type that holds one metric names it by itself too
        // (`StepsRecord`), unless that name is taken.
        for (record, ids) in metricsByRecord where ids.count == 1 && byIdentifier[record] == nil {
            byIdentifier[record] = ids.first.flatMap { byIdentifier[$0] }
        }
    }
}

extension CatalogError {
    init(decoding error: DecodingError, file: String) {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(
                file: file, location: path(context.codingPath + [key]),
                problem: "is required but missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            self.init(
                file: file, location: path(context.codingPath),
                problem: "has the wrong type (\(context.debugDescription))")
        case .dataCorrupted(let context):
            self.init(
                file: file, location: path(context.codingPath),
                problem: context.codingPath.isEmpty
                    ? "is not valid JSON" : "is invalid (\(context.debugDescription))")
        @unknown default:
            self.init(file: file, location: "", problem: "cannot be read (\(error))")
        }
    }
}

extension MetricCatalog {
    /// The unit of the value a metric's rollup reports: the canonical unit of a quantity, `s` for
    /// time covered, `{events}` for counts, and a correlation's components' shared unit.
    public func reportedUnit(of metric: MetricDefinition) -> String? {
        switch metric.aggregation {
        case .sum, .statistics, .latest: return metric.unit
        case .duration: return "s"
        case .count: return "{events}"
        case .panel:
            let units = Set(metric.components.compactMap { self.metric(named: $0)?.definition.unit })
            return units.count == 1 ? units.first : nil
        }
    }
}
