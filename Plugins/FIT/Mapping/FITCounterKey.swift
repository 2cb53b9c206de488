/// One cumulative counter of a monitoring file: a field (steps, distance, active energy) for one
/// activity type, each of which counts on its own.
struct FITCounterKey: Hashable, Sendable {
    /// The activity type of counters kept for the whole day (intensity minutes).
    static let wholeDay: UInt64 = .max

    let field: UInt8
    let activityType: UInt64
}

/// A counter's last reading and when it was taken.
struct FITCounterReading: Sendable {
    let value: Double
    let time: UInt32
}
