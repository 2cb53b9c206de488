extension InsightRule {
    /// What the rule tests, in words: "≥ 2 MAD and ≥ 5 bpm above the 28-day median".
    public var test: String {
        switch condition {
        case .aboveBaseline(let mads, let least):
            "≥ \(Self.number(mads)) MAD and ≥ \(Self.number(least)) \(unit) above the 28-day median"
        case .belowBaseline(let mads, let least):
            mads > 0
                ? "≥ \(Self.number(mads)) MAD below the 28-day median"
                    + (least > 0 ? " and ≥ \(Self.number(least)) \(unit)" : "")
                : "≥ \(Self.number(least)) \(unit) below the 28-day median"
        case .weekBelowMonth(let fraction):
            "7-day mean ≥ \(Int((fraction * 100).rounded())) % below the 28-day mean"
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
