import HealthETLCore

/// Samples as one FHIR R4 `Bundle` of type `collection`: the placeholder Patient first, then one
/// Observation per sample, each entry with a `urn:uuid:` full URL (the sample's id as a UUID).
public struct FHIRBundleFormat: SampleFormat {
    private var encoder: FHIRObservationEncoder
    private let timestamp: Instant

    /// - Parameter timestamp: when the bundle was assembled (`Bundle.timestamp`).
    public init(catalog: MetricCatalog, timestamp: Instant) {
        encoder = FHIRObservationEncoder(catalog: catalog, subject: "urn:uuid:" + FHIRPatient.uuid)
        self.timestamp = timestamp
    }

    public mutating func begin(names: ExportNames, into bytes: inout [UInt8]) {
        encoder.begin(names: names)
        ByteText.append("{\"resourceType\":\"Bundle\",\"type\":\"collection\",\"timestamp\":\"", to: &bytes)
        var time = TimeText()
        time.appendISO8601(timestamp, offset: 0, to: &bytes)
        ByteText.append("\",\"entry\":[\n{\"fullUrl\":\"urn:uuid:\(FHIRPatient.uuid)\",\"resource\":", to: &bytes)
        FHIRPatient.appendResource(to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func append(_ exported: ExportedSample, into bytes: inout [UInt8]) {
        ByteText.append(",\n{\"fullUrl\":\"urn:uuid:", to: &bytes)
        HexText.appendUUID(exported.id, to: &bytes)
        ByteText.append("\",\"resource\":", to: &bytes)
        encoder.append(exported, into: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    public func finish(into bytes: inout [UInt8]) {
        ByteText.append("\n]}\n", to: &bytes)
    }
}
