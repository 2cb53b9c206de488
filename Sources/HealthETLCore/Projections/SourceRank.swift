/// Where a sample's source stands in a `SourcePriority`: lower ranks win.
///
/// The rank is also the identity of a source in the projections: samples with equal ranks are one
/// source's own data and add up, while a different rank is a competing source. The source name is
/// the last key so that two sources of the same tier never tie and results never depend on input
/// order.
public struct SourceRank: Hashable, Sendable, Comparable {
    /// Index in the configured preferred names; preferred sources come before every tier.
    public var preferredPosition: Int?
    public var sourceClass: SourceClass
    public var sourceName: String

    public init(preferredPosition: Int?, sourceClass: SourceClass, sourceName: String) {
        self.preferredPosition = preferredPosition
        self.sourceClass = sourceClass
        self.sourceName = sourceName
    }

    public static func < (lhs: SourceRank, rhs: SourceRank) -> Bool {
        let lhsPosition = lhs.preferredPosition ?? Int.max
        let rhsPosition = rhs.preferredPosition ?? Int.max
        if lhsPosition != rhsPosition { return lhsPosition < rhsPosition }
        if lhs.sourceClass != rhs.sourceClass { return lhs.sourceClass < rhs.sourceClass }
        return lhs.sourceName < rhs.sourceName
    }
}
