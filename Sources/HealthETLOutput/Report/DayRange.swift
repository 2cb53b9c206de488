import HealthETLCore

extension ClosedRange where Bound == CivilDate {
    /// How many days the range holds, both ends counted: the charts' slots along x.
    var dayCount: Int { Int(upperBound.daysSinceEpoch - lowerBound.daysSinceEpoch) + 1 }
}
