import HealthETLCore

/// Observations as FHIR Bulk Data NDJSON (`Observation.ndjson`): one resource per line, each
/// referring to the placeholder Patient of `Patient.ndjson` by `Patient/<id>`.
public struct FHIRObservationLines: SampleFormat {
    private var encoder: FHIRObservationEncoder

    public init(catalog: MetricCatalog) {
        encoder = FHIRObservationEncoder(catalog: catalog, subject: "Patient/" + FHIRPatient.id)
    }

    public mutating func begin(names: ExportNames, into bytes: inout [UInt8]) {
        encoder.begin(names: names)
    }

    public mutating func append(_ exported: ExportedSample, into bytes: inout [UInt8]) {
        encoder.append(exported, into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    public func finish(into bytes: inout [UInt8]) {}
}
