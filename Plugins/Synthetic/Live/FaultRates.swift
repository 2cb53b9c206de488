/// How often a synthetic stream misbehaves the way real sources do, each a fraction of records.
public struct FaultRates: Codable, Equatable, Sendable {
    /// The same record delivered twice (the store keeps one).
    public var duplicate: Double
    /// A value far outside the metric's plausible range (flagged, or quarantined past the hard limit).
    public var outOfRange: Double
    /// An extra record of a type no catalog knows (quarantined as `unknown_type`).
    public var unknownType: Double
    /// A record reaching the phone hours after it ended (it arrives in a later hot batch).
    public var late: Double

    public init(duplicate: Double = 0, outOfRange: Double = 0, unknownType: Double = 0, late: Double = 0) {
        self.duplicate = duplicate
        self.outOfRange = outOfRange
        self.unknownType = unknownType
        self.late = late
    }

    public static let none = FaultRates()

    private enum CodingKeys: String, CodingKey {
        case duplicate, late
        case outOfRange = "out_of_range"
        case unknownType = "unknown_type"
    }
}
