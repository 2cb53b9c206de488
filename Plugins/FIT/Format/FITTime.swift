import HealthETLCore

/// FIT's `date_time`: seconds since 1989-12-31T00:00:00Z. Values below 0x10000000 count from a
/// device's own reference (its power-on), not from that epoch: they date nothing by themselves.
enum FITTime {
    /// 1989-12-31T00:00:00Z in seconds since 1970.
    static let epochOffset: Int64 = 631_065_600
    /// The smallest value that is a date rather than a device-relative count.
    static let minimumAbsolute: UInt32 = 0x1000_0000

    static func isAbsolute(_ value: UInt32) -> Bool { value >= minimumAbsolute }

    static func instant(_ value: UInt32) -> Instant {
        Instant(secondsSinceEpoch: Int64(value) + epochOffset)
    }

    /// Seconds as whole milliseconds; `nil` when not finite or beyond what a FIT time can count
    /// (2^32 s): a file may declare a field with any base type, so a duration can hold any number,
    /// and converting that to an integer must not trap.
    static func milliseconds(_ seconds: Double) -> Int64? {
        guard seconds.isFinite, seconds.magnitude <= Double(UInt32.max) else { return nil }
        return Int64((seconds * 1000).rounded())
    }

    /// `value` plus a fraction of a second, as milliseconds.
    static func instant(_ value: UInt32, milliseconds: Int64) -> Instant {
        Instant(millisecondsSinceEpoch: (Int64(value) + epochOffset) * 1000 + milliseconds)
    }
}
