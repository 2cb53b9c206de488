/// One file of the export, counted as the generator wrote it: what an independent decoder must
/// count back. The counts that only some kinds have are nil for the others.
public struct FITWrittenFile: Sendable, Codable, Equatable {
    /// Relative to the export's root, e.g. `GARMIN/Monitor/2024-11-30.fit`.
    public var path = ""
    public var kind: FITFileKind
    /// FIT files in it, each with its own header and CRC; more than one when chained.
    public var fitFiles = 1
    public var bytes = 0
    /// Data messages by profile name.
    public var messages: [String: Int] = [:]
    /// Activity: valid hrv.time entries and their sum in milliseconds.
    public var hrvIntervals: Int?
    public var hrvMilliseconds: Int?
    public var session: FITSessionSummary?
    /// Monitoring: the day's walking and running steps, and stress levels measured (value ≥ 0).
    public var steps: Int?
    public var stressLevels: Int?
    /// Weight: weigh-ins by `user_profile_index`.
    public var weighIns: [String: Int]?

    init(kind: FITFileKind) { self.kind = kind }

    enum CodingKeys: String, CodingKey {
        case path, kind, bytes, messages, session, steps
        case fitFiles = "fit_files"
        case hrvIntervals = "hrv_intervals"
        case hrvMilliseconds = "hrv_ms"
        case stressLevels = "stress_levels"
        case weighIns = "weigh_ins"
    }
}
