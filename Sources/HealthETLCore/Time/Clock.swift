#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one source of time, injected wherever time is read: the wall clock for instants that are
/// stored or compared with data, and a monotonic reading for elapsed time (immune to the wall
/// clock being set). Tests build one whose readings they choose.
public struct Clock: Sendable {
    private let readWall: @Sendable () -> Instant
    private let readMonotonic: @Sendable () -> Duration

    public init(wall: @escaping @Sendable () -> Instant, monotonic: @escaping @Sendable () -> Duration) {
        readWall = wall
        readMonotonic = monotonic
    }

    /// The machine's clocks.
    public static let system = Clock(
        wall: {
            var time = timespec()
            clock_gettime(CLOCK_REALTIME, &time)
            return Instant(millisecondsSinceEpoch: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
        },
        monotonic: {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
        })

    /// A clock whose wall time is `wall()` and whose monotonic reading follows it.
    public static func following(_ wall: @escaping @Sendable () -> Instant) -> Clock {
        Clock(wall: wall, monotonic: { .milliseconds(wall().millisecondsSinceEpoch) })
    }

    /// A clock stopped at `instant`.
    public static func fixed(_ instant: Instant) -> Clock {
        following { instant }
    }

    /// The wall-clock instant, to the millisecond.
    public func now() -> Instant { readWall() }

    /// A reading to measure elapsed time against.
    public func monotonic() -> Duration { readMonotonic() }

    /// Seconds elapsed since the monotonic reading `start`.
    public func secondsSince(_ start: Duration) -> Double { (readMonotonic() - start).seconds }
}
