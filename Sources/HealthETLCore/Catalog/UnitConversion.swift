/// An exact affine conversion to a canonical unit: `canonical = value × scale + offset`.
///
/// In the catalog file a plain number is a scale (`"km": 1000`); temperatures need the object
/// form (`"degF": {"scale": 0.5555555555555556, "offset": -17.77777777777778}`).
public struct UnitConversion: Hashable, Sendable, Codable {
    public var scale: Double
    public var offset: Double

    public init(scale: Double, offset: Double = 0) {
        self.scale = scale
        self.offset = offset
    }

    public static let identity = UnitConversion(scale: 1)

    public func toCanonical(_ value: Double) -> Double {
        value * scale + offset
    }

    private enum CodingKeys: String, CodingKey { case scale, offset }

    public init(from decoder: any Decoder) throws {
        if let scale = try? decoder.singleValueContainer().decode(Double.self) {
            self.init(scale: scale)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            scale: try container.decode(Double.self, forKey: .scale),
            offset: try container.decodeIfPresent(Double.self, forKey: .offset) ?? 0)
    }

    public func encode(to encoder: any Encoder) throws {
        if offset == 0 {
            var container = encoder.singleValueContainer()
            try container.encode(scale)
        } else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(scale, forKey: .scale)
            try container.encode(offset, forKey: .offset)
        }
    }
}
