import HealthETLCore

/// One way of writing samples out (CSV, NDJSON, a FHIR bundle): what comes before the first
/// sample, each sample, and what closes the file. Formats append bytes; the caller writes them.
public protocol SampleFormat {
    /// Starts the file. `names` says what the samples' numbers stand for.
    mutating func begin(names: ExportNames, into bytes: inout [UInt8])
    mutating func append(_ exported: ExportedSample, into bytes: inout [UInt8])
    mutating func finish(into bytes: inout [UInt8])
}
