/// Where a FIT file keeps a metric: a message and field as the FIT profile names them, the unit
/// the field holds once the profile's scale and offset are applied, and for enum fields what
/// each stored number means.
///
/// ```json
/// {"message": "record", "field": "heart_rate", "unit": "bpm"}
/// {"message": "record", "field": "power", "sport": "cycling", "unit": "W"}
/// {"message": "sleep_level", "field": "sleep_level", "values": {"1": "awake", "2": "asleep_core"}}
/// ```
///
/// `sport` narrows a mapping to the activity a field was recorded in (a record's power is
/// cycling power on a ride and running power on a run).
public struct FITField: Hashable, Sendable, Codable {
    public var message: String
    public var field: String
    public var sport: String?
    public var unit: String?
    /// Stored number (as text) → canonical category value, for enum fields.
    public var values: [String: String]

    public init(
        message: String, field: String, sport: String? = nil, unit: String? = nil, values: [String: String] = [:]
    ) {
        self.message = message
        self.field = field
        self.sport = sport
        self.unit = unit
        self.values = values
    }

    /// The name this mapping gives the metric, which a FIT record carries as its type:
    /// `fit:record.power@cycling`.
    public var identifier: String {
        Self.identifier(message: message, field: field, sport: sport)
    }

    public static func identifier(message: String, field: String, sport: String? = nil) -> String {
        "fit:\(message).\(field)" + (sport.map { "@" + $0 } ?? "")
    }

    private enum CodingKeys: String, CodingKey {
        case message, field, sport, unit, values
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            message: try c.decode(String.self, forKey: .message),
            field: try c.decode(String.self, forKey: .field),
            sport: try c.decodeIfPresent(String.self, forKey: .sport),
            unit: try c.decodeIfPresent(String.self, forKey: .unit),
            values: try c.decodeIfPresent([String: String].self, forKey: .values) ?? [:])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(message, forKey: .message)
        try c.encode(field, forKey: .field)
        try c.encodeIfPresent(sport, forKey: .sport)
        try c.encodeIfPresent(unit, forKey: .unit)
        if !values.isEmpty { try c.encode(values, forKey: .values) }
    }
}
