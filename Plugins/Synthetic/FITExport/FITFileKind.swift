/// What a written file holds, and the folder of the watch's `GARMIN/` it goes in.
public enum FITFileKind: String, Sendable, Codable, CaseIterable {
    case activity
    case monitoring
    case sleep
    case weight
    case bloodPressure = "blood_pressure"

    var folder: String {
        switch self {
        case .activity: "GARMIN/Activity"
        case .monitoring: "GARMIN/Monitor"
        case .sleep: "GARMIN/Sleep"
        // The scale's and the blood-pressure monitor's files arrive together.
        case .weight, .bloodPressure: "GARMIN/Weight"
        }
    }
}
