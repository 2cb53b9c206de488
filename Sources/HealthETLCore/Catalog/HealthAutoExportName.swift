/// A metric name Health Auto Export writes (`"name": "step_count"`), with the unit spellings it
/// writes for it (they follow the phone's preferences: `kcal` or `kJ`, `mi` or `km`).
///
/// A plain string is a name without units (categories and sessions).
public struct HealthAutoExportName: Hashable, Sendable, Codable {
    public var name: String
    /// Spellings of the metric's unit set.
    public var units: [String]

    public init(name: String, units: [String] = []) {
        self.name = name
        self.units = units
    }

    private enum CodingKeys: String, CodingKey {
        case name, units
    }

    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self.init(name: name)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(String.self, forKey: .name),
            units: try c.decodeIfPresent([String].self, forKey: .units) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        if !units.isEmpty { try c.encode(units, forKey: .units) }
    }
}
