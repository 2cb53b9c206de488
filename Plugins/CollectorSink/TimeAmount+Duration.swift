import NIOCore

extension TimeAmount {
    /// Nanoseconds of a `Duration`, saturating rather than trapping on absurd values.
    static func duration(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return .nanoseconds(
            overflow ? .max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
    }
}
