/// A range of projection keys a committed write changed, as the collector's change feed lists
/// them: a metric's local days, sleep nights, insight days — or everything (a new source order).
public enum ChangeKey: Hashable, Sendable {
    case daily(metric: String, days: ClosedRange<CivilDate>)
    case sleep(nights: ClosedRange<CivilDate>)
    case insights(days: ClosedRange<CivilDate>)
    /// Every projection of the user may have changed: rebuild them all.
    case everything
}

extension ChangeKey {
    /// One line naming the scope, `daily|step_count|2026-01-01|2026-12-31`: the store's key for a
    /// pulled scope's ETag, and what the collector's ETag digests.
    public var scopeText: String {
        switch self {
        case .daily(let metric, let days): "daily|\(metric)|\(days.lowerBound)|\(days.upperBound)"
        case .sleep(let nights): "sleep|\(nights.lowerBound)|\(nights.upperBound)"
        case .insights(let days): "insights|\(days.lowerBound)|\(days.upperBound)"
        case .everything: "all"
        }
    }
}

extension ChangeKey: Codable {
    private enum CodingKeys: String, CodingKey { case scope, metric, from, to }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let scope = try container.decode(String.self, forKey: .scope)
        if scope == "all" {
            self = .everything
            return
        }
        let from = try container.decodeDate(forKey: .from)
        let to = try container.decodeDate(forKey: .to)
        guard from <= to else {
            throw DecodingError.dataCorruptedError(forKey: .to, in: container, debugDescription: "to is before from")
        }
        switch scope {
        case "daily": self = .daily(metric: try container.decode(String.self, forKey: .metric), days: from...to)
        case "sleep": self = .sleep(nights: from...to)
        case "insights": self = .insights(days: from...to)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .scope, in: container, debugDescription: "scope is daily, sleep, insights or all")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func range(_ days: ClosedRange<CivilDate>) throws {
            try container.encode(days.lowerBound.description, forKey: .from)
            try container.encode(days.upperBound.description, forKey: .to)
        }
        switch self {
        case .daily(let metric, let days):
            try container.encode("daily", forKey: .scope)
            try container.encode(metric, forKey: .metric)
            try range(days)
        case .sleep(let nights):
            try container.encode("sleep", forKey: .scope)
            try range(nights)
        case .insights(let days):
            try container.encode("insights", forKey: .scope)
            try range(days)
        case .everything:
            try container.encode("all", forKey: .scope)
        }
    }
}
