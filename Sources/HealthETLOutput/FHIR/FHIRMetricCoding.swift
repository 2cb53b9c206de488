import HealthETLCore

/// One metric's FHIR fragments, built once per export from the catalog: the `code`, the
/// `category` and the tail of a `valueQuantity`, ready to copy into each Observation.
struct FHIRMetricCoding {
    /// The catalog metric id.
    let id: String
    /// Whether a sample of it may come without a value (an event, a session).
    let valueOptional: Bool
    /// A panel's components (blood pressure's two readings), in the catalog's order; empty for
    /// everything that is not a panel with a LOINC code.
    let components: [FHIRMetricCoding]
    /// `{"coding":[…],"text":…}`: LOINC first when the catalog has it, always healthetl's id.
    let code: [UInt8]
    /// `[{"coding":[…]}]`, or empty for none.
    let category: [UInt8]
    /// `,"unit":…,"system":"http://unitsofmeasure.org","code":…}` after the value, or empty for
    /// a metric without a unit.
    let quantityTail: [UInt8]
    /// The system of its category values, for category metrics.
    let categorySystem: String?

    init(_ metric: MetricDefinition, catalog: MetricCatalog?) {
        id = metric.id
        valueOptional = metric.valueOptional
        components =
            metric.kind == .correlation && metric.loinc != nil
            ? metric.components.compactMap {
                catalog?.metric(named: $0).map { FHIRMetricCoding($0.definition, catalog: catalog) }
            }
            : []
        var code: [UInt8] = []
        ByteText.append("{\"coding\":[", to: &code)
        if let loinc = metric.loinc {
            ByteText.append("{\"system\":\"\(FHIRSystems.loinc)\",\"code\":", to: &code)
            JSONText.appendQuoted(loinc, to: &code)
            ByteText.append("},", to: &code)
        }
        ByteText.append("{\"system\":\"\(FHIRSystems.metric)\",\"code\":", to: &code)
        JSONText.appendQuoted(metric.id, to: &code)
        ByteText.append(",\"display\":", to: &code)
        JSONText.appendQuoted(metric.name, to: &code)
        ByteText.append("}],\"text\":", to: &code)
        JSONText.appendQuoted(
            metric.loinc == nil ? metric.name + " (no LOINC code; healthetl metric)" : metric.name, to: &code)
        ByteText.append("}", to: &code)
        self.code = code

        var category: [UInt8] = []
        let kind: (code: String, display: String)? =
            if let loinc = metric.loinc, FHIRSystems.vitalSignCodes.contains(loinc) {
                ("vital-signs", "Vital Signs")
            } else if metric.kind == .cumulative {
                ("activity", "Activity")
            } else { nil }
        if let kind {
            ByteText.append(
                "[{\"coding\":[{\"system\":\"\(FHIRSystems.observationCategory)\",\"code\":\"\(kind.code)\",\"display\":\"\(kind.display)\"}]}]",
                to: &category)
        }
        self.category = category

        var tail: [UInt8] = []
        if let unit = metric.unit, let ucum = metric.ucumUnit {
            ByteText.append(",\"unit\":", to: &tail)
            JSONText.appendQuoted(unit, to: &tail)
            ByteText.append(",\"system\":\"\(FHIRSystems.ucum)\",\"code\":", to: &tail)
            JSONText.appendQuoted(ucum, to: &tail)
            ByteText.append("}", to: &tail)
        }
        quantityTail = tail
        categorySystem = metric.category.map { FHIRSystems.categoryPrefix + $0 }
    }

    /// A metric the store holds and the catalog no longer has (an overlay removed it): only
    /// healthetl's code, its id as the text, no unit.
    init(unknown id: String) {
        self.init(
            MetricDefinition(id: id, name: id + " (not in the metric catalog)", kind: .discrete, aggregation: .latest),
            catalog: nil)
    }
}
