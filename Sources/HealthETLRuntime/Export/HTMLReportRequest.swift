import HealthETLCore

/// What `healthetl report` was asked for.
public struct HTMLReportRequest: Sendable {
    /// First and last local day; by default the year up to the last sample (or from the first
    /// sample, when the store holds less than a year).
    public var from: CivilDate?
    public var to: CivilDate?
    /// The HTML file to write, or `-` for standard output.
    public var output: String

    public init(from: CivilDate? = nil, to: CivilDate? = nil, output: String) {
        self.from = from
        self.to = to
        self.output = output
    }
}
