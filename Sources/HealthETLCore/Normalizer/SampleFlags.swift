/// Marks on an accepted sample: why a person may want to look at it (the `review` flags;
/// flagged samples are stored and used), and whether it is a source's summary of a period.
public struct SampleFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The value lies outside the catalog's plausible range (per day for cumulative metrics).
    public static let outOfPlausibleRange = SampleFlags(rawValue: 1 << 0)
    /// The sample ends after the source's "now" (beyond a small clock-skew tolerance).
    public static let futureDated = SampleFlags(rawValue: 1 << 1)
    /// The sample lasts longer than the catalog's plausible maximum duration.
    public static let implausibleDuration = SampleFlags(rawValue: 1 << 2)

    /// A source's sum or average over a period (Health Auto Export's summarized points), not a
    /// measurement: the projections rank it below every raw sample, so where raw samples cover a
    /// slice they win and the summary never adds to them. Not a reason for review.
    public static let summarized = SampleFlags(rawValue: 1 << 3)

    /// The flags that say a person may want to look at the sample.
    public static let review: SampleFlags = [.outOfPlausibleRange, .futureDated, .implausibleDuration]

    /// Whether any flag asks for review: what `import` counts as flagged.
    public var needsReview: Bool { !intersection(.review).isEmpty }

    /// Every flag with its report name, in a stable order.
    public static let named: [(flag: SampleFlags, name: String)] = [
        (.outOfPlausibleRange, "out_of_plausible_range"),
        (.futureDated, "future_dated"),
        (.implausibleDuration, "implausible_duration"),
        (.summarized, "summarized"),
    ]

    /// The report names of the flags set.
    public var names: [String] {
        SampleFlags.named.filter { contains($0.flag) }.map(\.name)
    }
}
