/// The default tiers of source priority, best first: what a person typed beats what a watch
/// measured, which beats a phone in a pocket, which beats other apps (often copies of the others);
/// a source's summary of a period (a `summarized` sample) comes last, below every measurement.
public enum SourceClass: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case manual
    case watch
    case phone
    case other
    case summary

    public static func < (lhs: SourceClass, rhs: SourceClass) -> Bool {
        lhs.order < rhs.order
    }

    /// Position in the default order, 0 for the best.
    private var order: Int {
        switch self {
        case .manual: return 0
        case .watch: return 1
        case .phone: return 2
        case .other: return 3
        case .summary: return 4
        }
    }
}
