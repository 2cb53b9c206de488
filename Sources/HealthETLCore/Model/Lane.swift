/// The three flows every source stream feeds, each with its own cursor.
public enum Lane: String, Sendable, Codable, CaseIterable, Comparable {
    /// Recent samples: end within the hot window before the source's "now". Committed and sent first.
    case hot
    /// History being backfilled, in bounded chunks.
    case cold
    /// Deletions and edits of earlier samples.
    case change

    /// Storage code; also the priority order (hot before cold before change).
    public var code: Int {
        switch self {
        case .hot: return 0
        case .cold: return 1
        case .change: return 2
        }
    }

    public init?(code: Int) {
        guard let lane = Lane.allCases.first(where: { $0.code == code }) else { return nil }
        self = lane
    }

    public static func < (lhs: Lane, rhs: Lane) -> Bool { lhs.code < rhs.code }

    /// The lane of an export's record by when it ends: hot from `hotSince` on, cold before it or
    /// when its end is unreadable (the normalizer then quarantines it).
    public static func of(ending end: Instant?, hotSince: Instant) -> Lane {
        guard let end else { return .cold }
        return end >= hotSince ? .hot : .cold
    }
}
