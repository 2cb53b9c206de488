/// What a FIT export wrote: files by kind, the totals a decoder must find, and every file.
public struct FITExportSummary: Sendable, Codable, Equatable {
    public var path = ""
    /// The first and last local day of data, `YYYY-MM-DD`.
    public var firstDay = ""
    public var lastDay = ""
    public var days = 0
    /// Files by kind (`FITFileKind`'s raw values).
    public var filesByKind: [String: Int] = [:]
    /// FIT files in them (a chained file holds several).
    public var fitFiles = 0
    /// Data messages by profile name, over every file.
    public var messages: [String: Int] = [:]
    public var records = 0
    public var hrvIntervals = 0
    public var hrvMilliseconds = 0
    public var sessions: [FITSessionSummary] = []
    public var monitoringMessages = 0
    /// Walking and running steps by local day.
    public var stepsByDay: [String: Int] = [:]
    public var stressLevels = 0
    public var sleepLevels = 0
    /// Weigh-ins by `user_profile_index`.
    public var weighInsByPerson: [String: Int] = [:]
    public var bloodPressureReadings = 0
    /// Bytes written: the zip's size, or the files' sizes in a folder.
    public var bytes: Int64 = 0
    public var files: [FITWrittenFile] = []

    enum CodingKeys: String, CodingKey {
        case path, days, messages, records, sessions, bytes, files
        case firstDay = "first_day"
        case lastDay = "last_day"
        case filesByKind = "files_by_kind"
        case fitFiles = "fit_files"
        case hrvIntervals = "hrv_intervals"
        case hrvMilliseconds = "hrv_ms"
        case monitoringMessages = "monitoring_messages"
        case stepsByDay = "steps_by_day"
        case stressLevels = "stress_levels"
        case sleepLevels = "sleep_levels"
        case weighInsByPerson = "weigh_ins_by_person"
        case bloodPressureReadings = "blood_pressure_readings"
    }

    /// Counts a written file in.
    mutating func add(_ file: FITWrittenFile, day: String) {
        files.append(file)
        filesByKind[file.kind.rawValue, default: 0] += 1
        fitFiles += file.fitFiles
        messages.merge(file.messages, uniquingKeysWith: +)
        records += file.messages["record", default: 0]
        monitoringMessages += file.messages["monitoring", default: 0]
        sleepLevels += file.messages["sleep_level", default: 0]
        bloodPressureReadings += file.messages["blood_pressure", default: 0]
        hrvIntervals += file.hrvIntervals ?? 0
        hrvMilliseconds += file.hrvMilliseconds ?? 0
        stressLevels += file.stressLevels ?? 0
        if let session = file.session { sessions.append(session) }
        if let steps = file.steps { stepsByDay[day, default: 0] += steps }
        weighInsByPerson.merge(file.weighIns ?? [:], uniquingKeysWith: +)
    }
}
