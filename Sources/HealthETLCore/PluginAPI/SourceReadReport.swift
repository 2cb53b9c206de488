/// How a source adapter's read ended.
public struct SourceReadReport: Sendable {
    /// `false` when the input was damaged or cut short: what was read is usable, the rest is not.
    public var complete: Bool
    /// Problems that lost nothing (an illegal control character replaced, an unknown element counted).
    public var warnings: [String: Int]
    /// What stopped the read early, with where in the input, when `complete` is `false`.
    public var problem: String?
    /// `true` when an integrity check failed only after records were handed on (a large zip
    /// entry's CRC is known at its end): what was read may itself be wrong, so none of it is kept.
    public var damagedContent: Bool

    public init(complete: Bool, warnings: [String: Int] = [:], problem: String? = nil, damagedContent: Bool = false) {
        self.complete = complete
        self.warnings = warnings
        self.problem = problem
        self.damagedContent = damagedContent
    }
}
