/// The formats `healthetl export` writes.
public enum ExportFormat: String, CaseIterable, Sendable, Codable {
    /// RFC 4180 CSV with a header.
    case csv
    /// One JSON object per line.
    case ndjson
    /// FHIR R4: a `Bundle` of `Observation`s, or Bulk Data NDJSON files with `bulk`.
    case fhir
}
