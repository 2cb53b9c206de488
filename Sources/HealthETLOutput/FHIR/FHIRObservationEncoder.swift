import HealthETLCore

/// A stored sample as a FHIR R4 `Observation`, written as JSON bytes.
///
/// The code is LOINC (with healthetl's metric id beside it, and alone where LOINC has none), the
/// value a UCUM `valueQuantity` (or a coded category), the time `effectiveDateTime` for an instant
/// and `effectivePeriod` for a span, both at the sample's own offset. A panel (blood pressure,
/// 85354-9) carries its components. The source is `meta.source`, the device `device.display`, and
/// the flags are `meta.tag`s. Every Observation refers to one `subject`.
public struct FHIRObservationEncoder {
    private let catalog: MetricCatalog
    /// `"subject":{"reference":…}` for every Observation.
    private let subject: [UInt8]
    private var time = TimeText()
    /// Per metric number, its fragments.
    private var codings: [FHIRMetricCoding] = []
    /// Per source number: `meta.source` and the `device.display` used when there is no device.
    private var sources = NameTable()
    private var sourceDevices = NameTable()
    private var devices = NameTable()

    /// - Parameter subject: the reference to the one Patient (`urn:uuid:…` in a bundle,
    ///   `Patient/…` in bulk files).
    public init(catalog: MetricCatalog, subject: String) {
        self.catalog = catalog
        var bytes: [UInt8] = []
        ByteText.append(",\"subject\":{\"reference\":", to: &bytes)
        JSONText.appendQuoted(subject, to: &bytes)
        ByteText.append("}", to: &bytes)
        self.subject = bytes
    }

    /// Prepares the fragments of the names the samples refer to.
    public mutating func begin(names: ExportNames) {
        codings = names.metrics.map { name in
            catalog.metric(named: name).map { FHIRMetricCoding($0.definition, catalog: catalog) }
                ?? FHIRMetricCoding(unknown: name)
        }
        sources = NameTable(names.sources, escape: Self.appendPercentEncoded)
        sourceDevices = NameTable(
            names.sources.map { $0.isEmpty ? "unknown source" : $0 }, escape: JSONText.appendQuoted)
        devices = NameTable(names.devices, escape: JSONText.appendQuoted)
    }

    public mutating func append(_ sample: ExportedSample, into bytes: inout [UInt8]) {
        let coding = metricCoding(sample.metric)
        ByteText.append("{\"resourceType\":\"Observation\",\"id\":\"", to: &bytes)
        HexText.append(sample.id, to: &bytes)
        ByteText.append("\",\"meta\":{\"source\":\"", to: &bytes)
        ByteText.append(FHIRSystems.sourcePrefix, to: &bytes)
        sources.append(sample.source, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        // A panel's tags are its own flags and its readings' (an implausible systolic shows).
        let flags = sample.components.reduce(sample.flags) { $0.union($1.flags) }
        if !flags.isEmpty {
            ByteText.append(",\"tag\":[", to: &bytes)
            for (index, name) in flags.names.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                ByteText.append("{\"system\":\"\(FHIRSystems.flag)\",\"code\":\"", to: &bytes)
                ByteText.append(name, to: &bytes)
                ByteText.append("\"}", to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        ByteText.append("},\"status\":\"final\"", to: &bytes)
        if !coding.category.isEmpty {
            ByteText.append(",\"category\":", to: &bytes)
            bytes.append(contentsOf: coding.category)
        }
        ByteText.append(",\"code\":", to: &bytes)
        bytes.append(contentsOf: coding.code)
        bytes.append(contentsOf: subject)
        appendEffective(sample, to: &bytes)
        // A panel's value is its components; anything else without one says why (vs-2).
        if !appendValue(sample, coding, to: &bytes) && coding.components.isEmpty {
            Self.appendAbsence(coding.valueOptional ? "not-applicable" : "unknown", to: &bytes)
        }
        ByteText.append(",\"device\":{\"display\":", to: &bytes)
        if let device = sample.device {
            devices.append(device, to: &bytes)
        } else {
            sourceDevices.append(sample.source, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        appendComponents(of: sample, coding, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// A panel's components in the catalog's order: each reading found, and a missing one as a
    /// component whose value is absent (the vital-signs profile wants both blood pressures).
    private func appendComponents(of sample: ExportedSample, _ coding: FHIRMetricCoding, to bytes: inout [UInt8]) {
        guard !coding.components.isEmpty else { return }
        ByteText.append(",\"component\":[", to: &bytes)
        for (index, expected) in coding.components.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            ByteText.append("{\"code\":", to: &bytes)
            bytes.append(contentsOf: expected.code)
            let reading = sample.components.first { metricCoding($0.metric).id == expected.id }
            if reading.map({ appendValue($0, expected, to: &bytes) }) != true {
                Self.appendAbsence("unknown", to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private func metricCoding(_ metric: Int32) -> FHIRMetricCoding {
        codings.indices.contains(Int(metric)) ? codings[Int(metric)] : FHIRMetricCoding(unknown: "")
    }

    /// `dataAbsentReason` with one of FHIR's codes (`unknown`, `not-applicable`).
    private static func appendAbsence(_ code: StaticString, to bytes: inout [UInt8]) {
        ByteText.append(
            ",\"dataAbsentReason\":{\"coding\":[{\"system\":\"\(FHIRSystems.dataAbsentReason)\",\"code\":\"", to: &bytes
        )
        ByteText.append(code, to: &bytes)
        ByteText.append("\"}]}", to: &bytes)
    }

    private mutating func appendEffective(_ sample: ExportedSample, to bytes: inout [UInt8]) {
        if sample.start == sample.end {
            ByteText.append(",\"effectiveDateTime\":\"", to: &bytes)
            time.appendISO8601(sample.start, offset: sample.utcOffsetSeconds, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        } else {
            ByteText.append(",\"effectivePeriod\":{\"start\":\"", to: &bytes)
            time.appendISO8601(sample.start, offset: sample.utcOffsetSeconds, to: &bytes)
            ByteText.append("\",\"end\":\"", to: &bytes)
            time.appendISO8601(sample.end, offset: sample.utcOffsetSeconds, to: &bytes)
            ByteText.append("\"}", to: &bytes)
        }
    }

    /// Writes the value, if the sample has one. Returns whether it did.
    @discardableResult
    private func appendValue(_ sample: ExportedSample, _ coding: FHIRMetricCoding, to bytes: inout [UInt8]) -> Bool {
        if let value = sample.value {
            ByteText.append(",\"valueQuantity\":{\"value\":", to: &bytes)
            ByteText.append(value, to: &bytes)
            if coding.quantityTail.isEmpty {
                bytes.append(UInt8(ascii: "}"))
            } else {
                bytes.append(contentsOf: coding.quantityTail)
            }
            return true
        }
        guard let category = sample.category, let system = coding.categorySystem else { return false }
        ByteText.append(",\"valueCodeableConcept\":{\"coding\":[{\"system\":", to: &bytes)
        JSONText.appendQuoted(system, to: &bytes)
        ByteText.append(",\"code\":", to: &bytes)
        JSONText.appendQuoted(category, to: &bytes)
        ByteText.append("}],\"text\":", to: &bytes)
        JSONText.appendQuoted(category, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return true
    }

    /// RFC 3986: everything but the unreserved characters as %XX, so a source name with spaces
    /// or `|` is a valid `uri`.
    static func appendPercentEncoded(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
    }
}
