/// An activity file's `session` message as a decoder reads it back: names for the enums,
/// seconds and metres after the profile's scales.
public struct FITSessionSummary: Sendable, Codable, Equatable {
    public var sport: String
    public var subSport: String
    /// ISO 8601 UTC.
    public var startTime: String
    public var totalElapsedTime: Double
    public var totalDistance: Double
    public var totalCalories: Int

    enum CodingKeys: String, CodingKey {
        case sport
        case subSport = "sub_sport"
        case startTime = "start_time"
        case totalElapsedTime = "total_elapsed_time"
        case totalDistance = "total_distance"
        case totalCalories = "total_calories"
    }
}
