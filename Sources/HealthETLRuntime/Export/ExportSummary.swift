/// What an export wrote, for its closing line and `--json`.
public struct ExportSummary: Codable, Sendable {
    public var format: ExportFormat
    /// `samples` or `daily`.
    public var content: String
    /// The file, the folder of bulk files, or `-` for standard output.
    public var output: String
    /// The files written (bulk: one per resource type).
    public var files: [String]
    /// Samples written (a panel's components each count), or daily rollups.
    public var records: Int
    public var byMetric: [String: Int]
    /// FHIR: Observations written (a panel holds its components: fewer than samples).
    public var observations: Int?
    /// Sleep nights (daily exports).
    public var sleepNights: Int?
    /// FHIR: the metrics written that LOINC has no code for; their Observations carry only
    /// healthetl's metric code.
    public var withoutLOINC: [String]?
    public var bytes: Int
    public var seconds: Double

    enum CodingKeys: String, CodingKey {
        case format, content, output, files, records
        case byMetric = "by_metric"
        case observations
        case sleepNights = "sleep_nights"
        case withoutLOINC = "without_loinc"
        case bytes, seconds
    }
}
