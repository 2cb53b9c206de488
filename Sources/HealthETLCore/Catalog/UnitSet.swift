/// The accepted spellings of one physical quantity and how each converts to the canonical unit.
public struct UnitSet: Hashable, Sendable, Codable {
    /// The canonical UCUM unit values are stored in; it must be one of `units`.
    public var canonical: String
    /// Spelling as written by a source → conversion to `canonical`.
    public var units: [String: UnitConversion]

    public init(canonical: String, units: [String: UnitConversion]) {
        self.canonical = canonical
        self.units = units
    }
}
