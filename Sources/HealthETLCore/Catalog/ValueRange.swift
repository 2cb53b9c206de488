/// A closed range with optional bounds, as written in the catalog (`{"min": 0, "max": 250}`).
public struct ValueRange: Hashable, Sendable, Codable {
    public var min: Double?
    public var max: Double?

    public init(min: Double? = nil, max: Double? = nil) {
        self.min = min
        self.max = max
    }

    public func contains(_ value: Double) -> Bool {
        if let min, value < min { return false }
        if let max, value > max { return false }
        return true
    }

    var isOrdered: Bool {
        guard let min, let max else { return true }
        return min <= max
    }
}
