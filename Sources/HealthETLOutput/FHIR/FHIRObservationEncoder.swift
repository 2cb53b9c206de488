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
    /// Per metric number, its fragments (nil for a metric the catalog lacks).
    private var codings: [FHIRMetricCoding?] = []
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
        codings = names.metrics.map { catalog.metric(named: $0).map { FHIRMetricCoding($0.definition) } }
        sources = NameTable(names.sources, escape: Self.appendPercentEncoded)
        sourceDevices = NameTable(
            names.sources.map { $0.isEmpty ? "unknown source" : $0 }, escape: JSONText.appendQuoted)
        devices = NameTable(names.devices, escape: JSONText.appendQuoted)
    }

    public mutating func append(_ sample: ExportedSample, into bytes: inout [UInt8]) {
        guard let coding = metricCoding(sample.metric) else { return }
        ByteText.append("{\"resourceType\":\"Observation\",\"id\":\"", to: &bytes)
        HexText.append(sample.id, to: &bytes)
        ByteText.append("\",\"meta\":{\"source\":\"", to: &bytes)
        ByteText.append(FHIRSystems.sourcePrefix, to: &bytes)
        sources.append(sample.source, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        if !sample.flags.isEmpty {
            ByteText.append(",\"tag\":[", to: &bytes)
            for (index, name) in sample.flags.names.enumerated() {
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
        appendValue(sample, coding, to: &bytes)
        ByteText.append(",\"device\":{\"display\":", to: &bytes)
        if let device = sample.device {
            devices.append(device, to: &bytes)
        } else {
            sourceDevices.append(sample.source, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        let components = sample.components.compactMap { component in
            metricCoding(component.metric).map { (component, $0) }
        }
        if !components.isEmpty {
            ByteText.append(",\"component\":[", to: &bytes)
            for (index, (component, coding)) in components.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                ByteText.append("{\"code\":", to: &bytes)
                bytes.append(contentsOf: coding.code)
                appendValue(component, coding, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private func metricCoding(_ metric: Int32) -> FHIRMetricCoding? {
        codings.indices.contains(Int(metric)) ? codings[Int(metric)] : nil
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

    private func appendValue(_ sample: ExportedSample, _ coding: FHIRMetricCoding, to bytes: inout [UInt8]) {
        if let value = sample.value {
            ByteText.append(",\"valueQuantity\":{\"value\":", to: &bytes)
            ByteText.append(value, to: &bytes)
            if coding.quantityTail.isEmpty {
                bytes.append(UInt8(ascii: "}"))
            } else {
                bytes.append(contentsOf: coding.quantityTail)
            }
        } else if let category = sample.category, let system = coding.categorySystem {
            ByteText.append(",\"valueCodeableConcept\":{\"coding\":[{\"system\":", to: &bytes)
            JSONText.appendQuoted(system, to: &bytes)
            ByteText.append(",\"code\":", to: &bytes)
            JSONText.appendQuoted(category, to: &bytes)
            ByteText.append("}],\"text\":", to: &bytes)
            JSONText.appendQuoted(category, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
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
