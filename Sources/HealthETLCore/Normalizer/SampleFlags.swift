/// Why an accepted sample is flagged for a person to look at. Flagged samples are stored and used.
public struct SampleFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The value lies outside the catalog's plausible range (per day for cumulative metrics).
    public static let outOfPlausibleRange = SampleFlags(rawValue: 1 << 0)
    /// The sample ends after the source's "now" (beyond a small clock-skew tolerance).
    public static let futureDated = SampleFlags(rawValue: 1 << 1)
    /// The sample lasts longer than the catalog's plausible maximum duration.
    public static let implausibleDuration = SampleFlags(rawValue: 1 << 2)

    /// Every flag with its report name, in a stable order.
    public static let named: [(flag: SampleFlags, name: String)] = [
        (.outOfPlausibleRange, "out_of_plausible_range"),
        (.futureDated, "future_dated"),
        (.implausibleDuration, "implausible_duration"),
    ]

    /// The report names of the flags set.
    public var names: [String] {
        SampleFlags.named.filter { contains($0.flag) }.map(\.name)
    }
}
