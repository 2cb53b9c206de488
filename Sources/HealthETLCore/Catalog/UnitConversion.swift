/// An exact affine conversion to a canonical unit: `canonical = value × scale + offset`.
///
/// In the catalog file a plain number is a scale (`"km": 1000`); temperatures need the object
/// form (`"degF": {"scale": 0.5555555555555556, "offset": -17.77777777777778}`).
///
/// `whole_above` handles a spelling sources use two ways: HealthKit writes "%" for a 0–1
/// fraction, yet some files write whole percents under the same "%". With
/// `{"scale": 100, "whole_above": 1}`, 0.97 becomes 97 and 98 stays 98.
public struct UnitConversion: Hashable, Sendable, Codable {
    public var scale: Double
    public var offset: Double
    /// Values above this are already canonical and pass unchanged.
    public var wholeAbove: Double?

    public init(scale: Double, offset: Double = 0, wholeAbove: Double? = nil) {
        self.scale = scale
        self.offset = offset
        self.wholeAbove = wholeAbove
    }

    public static let identity = UnitConversion(scale: 1)

    public func toCanonical(_ value: Double) -> Double {
        if let wholeAbove, value > wholeAbove { return value }
        return value * scale + offset
    }

    private enum CodingKeys: String, CodingKey {
        case scale, offset
        case wholeAbove = "whole_above"
    }

    public init(from decoder: any Decoder) throws {
        if let scale = try? decoder.singleValueContainer().decode(Double.self) {
            self.init(scale: scale)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            scale: try container.decode(Double.self, forKey: .scale),
            offset: try container.decodeIfPresent(Double.self, forKey: .offset) ?? 0,
            wholeAbove: try container.decodeIfPresent(Double.self, forKey: .wholeAbove))
    }

    public func encode(to encoder: any Encoder) throws {
        if offset == 0, wholeAbove == nil {
            var container = encoder.singleValueContainer()
            try container.encode(scale)
        } else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(scale, forKey: .scale)
            if offset != 0 { try container.encode(offset, forKey: .offset) }
            try container.encodeIfPresent(wholeAbove, forKey: .wholeAbove)
        }
    }
}
