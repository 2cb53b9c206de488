import HealthETLCore

/// One record of every type the catalog knows by a HealthKit identifier, as Apple would write it,
/// so the import of every type is tested end to end: quantities in a unit that needs converting
/// where the unit set has one, categories by their Apple value names, and a Food correlation
/// whose nutrients also stand at top level (as in real exports).
///
/// Workouts and ECGs are left out: they are not `<Record>`s, and the generator writes them anyway.
struct CatalogTour {
    struct Entry {
        let type: String
        let metric: String
        let unit: String?
        let value: String?
        let seconds: Int64
    }

    let entries: [Entry]
    /// The nutrients of the Food correlation, each also among `entries`.
    let meal: [Entry]

    init(catalog: MetricCatalog) {
        var entries: [Entry] = []
        for metric in catalog.metrics where metric.kind != .correlation {
            for type in metric.healthKit where Self.isRecordType(type) {
                entries.append(Self.entry(type: type, metric: metric, catalog: catalog))
            }
        }
        self.entries = entries
        let food = catalog.metric(named: "HKCorrelationTypeIdentifierFood")?.definition
        let nutrients = Set(food?.components ?? [])
        meal = entries.filter { nutrients.contains($0.metric) }.prefix(4).map { $0 }
    }

    static func isRecordType(_ type: String) -> Bool {
        (type.hasPrefix("HKQuantityTypeIdentifier") || type.hasPrefix("HKCategoryTypeIdentifier")
            || type.hasPrefix("HKDataType")) && type != "HKDataTypeIdentifierElectrocardiogram"
    }

    private static func entry(type: String, metric: MetricDefinition, catalog: MetricCatalog) -> Entry {
        let resolved = catalog.metric(named: metric.id)
        switch metric.kind {
        case .cumulative, .discrete:
            let target = typicalValue(of: metric)
            let (unit, conversion) = unitToWrite(
                resolved?.conversions ?? [:], canonical: metric.unit ?? "", value: target)
            let written = (target - conversion.offset) / conversion.scale
            return Entry(
                type: type, metric: metric.id, unit: unit, value: decimalText(written),
                seconds: metric.kind == .cumulative ? 3_600 : 0)
        case .category:
            let values = resolved?.categoryValues ?? [:]
            let apple = values.keys.filter { $0.hasPrefix("HKCategoryValue") }.sorted().first
            return Entry(
                type: type, metric: metric.id, unit: nil, value: apple ?? values.values.sorted().first,
                seconds: sessionSeconds(metric))
        case .interval, .correlation:
            return Entry(type: type, metric: metric.id, unit: nil, value: nil, seconds: sessionSeconds(metric))
        }
    }

    /// A value inside the plausible range (for cumulative metrics, a twentieth of a day's most).
    static func typicalValue(of metric: MetricDefinition) -> Double {
        let low = metric.plausible?.min ?? metric.hard?.min ?? 0
        let high = metric.plausible?.max ?? metric.hard?.max ?? low + 2
        let value = metric.kind == .cumulative ? low + (high - low) / 20 : (low + high) / 2
        return (value * 100).rounded() / 100
    }

    /// A spelling that needs converting when the set has one (kJ for kcal, degF for Cel, HealthKit's
    /// "%" for a 0–1 fraction), else one equal to the canonical unit. A fraction-or-whole spelling
    /// is used only where the written value falls below its threshold, where it is exact.
    private static func unitToWrite(
        _ conversions: [String: UnitConversion], canonical: String, value: Double
    ) -> (String, UnitConversion) {
        let exact = conversions.filter { spelling in
            guard let wholeAbove = spelling.value.wholeAbove else { return true }
            return (value - spelling.value.offset) / spelling.value.scale <= wholeAbove
        }.sorted { $0.key < $1.key }
        if let converting = exact.first(where: { $0.value.scale != 1 || $0.value.offset != 0 }) {
            return (converting.key, converting.value)
        }
        if let same = exact.first { return (same.key, same.value) }
        return (canonical, .identity)
    }

    private static func sessionSeconds(_ metric: MetricDefinition) -> Int64 {
        Int64(min(1_800, metric.plausibleMaxDurationSeconds ?? 1_800))
    }

    private static func decimalText(_ value: Double) -> String {
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }

    // MARK: writing

    /// Writes every entry a minute apart from `start`, then the meal's nutrients at `start` (Apple
    /// writes a correlation's members at top level too). Returns the records written.
    func writeRecords(to out: ByteWriter, from start: Int64) -> Int {
        var at = start
        for entry in entries {
            record(entry, at: at, indent: 1, to: out)
            at += 60
        }
        for entry in meal { record(entry, at: start, indent: 1, to: out) }
        return entries.count + meal.count
    }

    /// Writes the Food correlation holding the meal's nutrients, at `start`.
    func writeMeal(to out: ByteWriter, at start: Int64) {
        guard !meal.isEmpty else { return }
        out.put(" <Correlation type=\"HKCorrelationTypeIdentifierFood\" sourceName=\"Health\" sourceVersion=\"18.1\"")
        dates(start, seconds: 0, to: out)
        out.put(">\n  <MetadataEntry key=\"HKFoodMeal\" value=\"Lunch\"/>\n")
        for entry in meal { record(entry, at: start, indent: 2, to: out) }
        out.put(" </Correlation>\n")
    }

    private func record(_ entry: Entry, at instant: Int64, indent: Int, to out: ByteWriter) {
        out.spaces(indent)
        out.put("<Record type=\"\(Self.escaped(entry.type))\" sourceName=\"Health\" sourceVersion=\"18.1\"")
        if let unit = entry.unit { out.put(" unit=\"\(Self.escaped(unit))\"") }
        dates(instant, seconds: entry.seconds, to: out)
        if let value = entry.value { out.put(" value=\"\(Self.escaped(value))\"") }
        out.put("/>\n")
    }

    private func dates(_ start: Int64, seconds: Int64, to out: ByteWriter) {
        out.put(" creationDate=\"")
        out.date(start + seconds)
        out.put("\" startDate=\"")
        out.date(start)
        out.put("\" endDate=\"")
        out.date(start + seconds)
        out.put("\"")
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
