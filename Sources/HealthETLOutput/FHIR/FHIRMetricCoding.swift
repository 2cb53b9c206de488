import HealthETLCore

/// One metric's FHIR fragments, built once per export from the catalog: the `code`, the
/// `category` and the tail of a `valueQuantity`, ready to copy into each Observation.
struct FHIRMetricCoding {
    /// `{"coding":[…],"text":…}`: LOINC first when the catalog has it, always healthetl's id.
    let code: [UInt8]
    /// `[{"coding":[…]}]`, or empty for none.
    let category: [UInt8]
    /// `,"unit":…,"system":"http://unitsofmeasure.org","code":…}` after the value, or empty for
    /// a metric without a unit.
    let quantityTail: [UInt8]
    /// The system of its category values, for category metrics.
    let categorySystem: String?
    let hasLOINC: Bool

    init(_ metric: MetricDefinition) {
        hasLOINC = metric.loinc != nil
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
}
