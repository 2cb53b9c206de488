extension MetricCatalog {
    /// Checks the rules the normalizer and projections rely on; the first broken one is thrown.
    func validate(file: String) throws {
        func fail(_ location: String, _ problem: String) -> CatalogError {
            CatalogError(file: file, location: location, problem: problem)
        }
        guard document.format == CatalogDocument.currentFormat else {
            throw fail(
                "format", "format \(document.format) is not supported (expected \(CatalogDocument.currentFormat))")
        }
        for (name, set) in document.unitSets {
            // The canonical unit need not be a spelling at scale 1: HealthKit writes "%" for a
            // 0–1 fraction, so in the percent set "%" converts ×100 to the canonical "%".
            guard !set.units.isEmpty else {
                throw fail("unit_sets.\(name).units", "a unit set needs at least one spelling")
            }
            for (spelling, conversion) in set.units
            where !conversion.scale.isFinite || conversion.scale == 0 || !conversion.offset.isFinite {
                throw fail("unit_sets.\(name).units.\(spelling)", "the scale must be a finite non-zero number")
            }
        }
        var ids = Set<String>()
        var claimedBy: [String: String] = [:]
        for (index, metric) in document.metrics.enumerated() {
            let here = "metrics[\(index)] (\(metric.id))"
            guard metric.id.isSnakeCase else {
                throw fail(here, "the id must be snake_case: lowercase letters, digits and _")
            }
            guard ids.insert(metric.id).inserted else { throw fail(here, "the id is defined twice") }
            for identifier in Set(metric.identifiers) {
                if let other = claimedBy[identifier] {
                    throw fail(here, "\"\(identifier)\" already names metric \(other)")
                }
                claimedBy[identifier] = metric.id
            }
            guard Aggregation.allowed(for: metric.kind).contains(metric.aggregation) else {
                let allowed = Aggregation.allowed(for: metric.kind).map(\.rawValue).sorted()
                throw fail(
                    here + ".aggregation",
                    "\(metric.aggregation.rawValue) does not fit kind \(metric.kind.rawValue); use one of \(allowed.joined(separator: ", "))"
                )
            }
            try validateValueRules(of: metric, at: here, fail: fail)
            guard metric.tier == 1 || metric.tier == 2 else {
                throw fail(here + ".tier", "the tier must be 1 (real time) or 2 (nightly batch)")
            }
        }
        for (index, metric) in document.metrics.enumerated() {
            for component in metric.components where !ids.contains(component) {
                throw fail("metrics[\(index)] (\(metric.id)).components", "no metric has the id \(component)")
            }
        }
    }

    private func validateValueRules(
        of metric: MetricDefinition, at here: String, fail: (String, String) -> CatalogError
    ) throws {
        if metric.kind.isQuantity {
            guard let unit = metric.unit, let setName = metric.unitSet else {
                throw fail(here, "a \(metric.kind.rawValue) metric needs a unit and a unit_set")
            }
            guard let set = document.unitSets[setName] else {
                throw fail(here + ".unit_set", "no unit set is named \(setName)")
            }
            guard set.canonical == unit else {
                throw fail(here + ".unit", "\(unit) differs from the canonical unit \(set.canonical) of \(setName)")
            }
        } else if metric.unit != nil || metric.unitSet != nil {
            throw fail(here, "a \(metric.kind.rawValue) metric has no unit")
        }
        if metric.kind == .category {
            guard let name = metric.category, document.categories[name] != nil else {
                throw fail(here + ".category", "a category metric needs a defined category set")
            }
        } else if let name = metric.category {
            // A session may name its activity's set (a workout's activity types).
            guard metric.kind == .interval else {
                throw fail(here + ".category", "a \(metric.kind.rawValue) metric has no category set")
            }
            guard document.categories[name] != nil else {
                throw fail(here + ".category", "no category set is named \(name)")
            }
        }
        if metric.kind == .correlation, metric.components.isEmpty {
            throw fail(here + ".components", "a correlation needs its component metrics")
        }
        for (key, range) in [("hard", metric.hard), ("plausible", metric.plausible)] {
            if let range, !range.isOrdered { throw fail(here + ".\(key)", "min is greater than max") }
        }
        try validateSourceMappings(of: metric, at: here, fail: fail)
    }

    /// Every unit a source is said to write converts, and every stored enum number means a value
    /// of the metric's set: a mapping that cannot be followed is a catalog error, not a quarantine
    /// of each record later.
    private func validateSourceMappings(
        of metric: MetricDefinition, at here: String, fail: (String, String) -> CatalogError
    ) throws {
        // A panel's source writes its components' units (Health Auto Export's blood_pressure in mmHg).
        let setNames =
            metric.kind == .correlation
            ? document.metrics.filter { metric.components.contains($0.id) }.compactMap(\.unitSet)
            : [metric.unitSet].compactMap { $0 }
        var spellings: [String: UnitConversion] = [:]
        for name in setNames { spellings.merge(document.unitSets[name]?.units ?? [:]) { first, _ in first } }
        let setName = setNames.isEmpty ? "no unit set" : Set(setNames).sorted().joined(separator: " or ")
        let mappings =
            metric.healthConnect.enumerated().map {
                (here + ".health_connect[\($0.offset)]", $0.element.unit, $0.element.values, $0.element.field != nil)
            }
            + metric.fit.enumerated().map { (here + ".fit[\($0.offset)]", $0.element.unit, $0.element.values, true) }
        for (location, unit, values, namesAField) in mappings {
            if let unit {
                guard metric.kind.isQuantity else {
                    throw fail(location + ".unit", "a \(metric.kind.rawValue) metric has no unit")
                }
                guard spellings[unit] != nil else {
                    throw fail(location + ".unit", "\(unit) is not a spelling of \(setName)")
                }
            } else if metric.kind.isQuantity, namesAField {
                throw fail(location + ".unit", "a quantity field needs the unit it is stored in")
            }
            if !values.isEmpty {
                let canonical = Set(metric.category.flatMap { document.categories[$0]?.canonicalValues } ?? [])
                for (stored, value) in values.sorted(by: { $0.key < $1.key }) where !canonical.contains(value) {
                    throw fail(
                        location + ".values.\(stored)",
                        "\(value) is not a value of the category set \(metric.category ?? "(none)")")
                }
            }
        }
        for (index, name) in metric.healthAutoExport.enumerated() {
            for unit in name.units where spellings[unit] == nil {
                throw fail(here + ".hae[\(index)].units", "\(unit) is not a spelling of \(setName)")
            }
        }
    }
}

extension String {
    var isSnakeCase: Bool {
        guard let first = utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else {
            return false
        }
        return utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
    }
}
