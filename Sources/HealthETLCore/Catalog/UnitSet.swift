/// The accepted spellings of one physical quantity and how each converts to the canonical unit.
public struct UnitSet: Hashable, Sendable, Codable {
    /// The canonical UCUM unit values are stored in. It is usually also a spelling at scale 1,
    /// but a source dialect may use the same spelling differently (HealthKit's "%" is a fraction).
    public var canonical: String
    /// Spelling as written by a source → conversion to `canonical`.
    public var units: [String: UnitConversion]

    public init(canonical: String, units: [String: UnitConversion]) {
        self.canonical = canonical
        self.units = units
    }
}
