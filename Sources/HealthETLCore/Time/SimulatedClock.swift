/// A live source's clock: the simulated instant runs `speed` times as fast as the wall clock
/// from an anchor. Speed 1 is real time; speed 0 stops the clock at the anchor (a finished
/// history, loaded at full speed).
public struct SimulatedClock: Codable, Equatable, Sendable {
    /// The simulated instant at `wallAnchor` (ms).
    public var simulatedAnchorMilliseconds: Int64
    public var wallAnchorMilliseconds: Int64
    public var speed: Double

    public init(simulated: Instant, wall: Instant, speed: Double) {
        simulatedAnchorMilliseconds = simulated.millisecondsSinceEpoch
        wallAnchorMilliseconds = wall.millisecondsSinceEpoch
        self.speed = speed
    }

    /// The simulated instant at the wall-clock instant `wall`.
    public func now(wall: Instant) -> Instant {
        let elapsed = Double(wall.millisecondsSinceEpoch - wallAnchorMilliseconds) * speed
        return Instant(millisecondsSinceEpoch: simulatedAnchorMilliseconds + Int64(elapsed))
    }

    /// Wall-clock seconds from `wall` until the simulated clock reaches `instant`
    /// (infinite for a stopped clock that never will).
    public func secondsUntil(_ instant: Instant, wall: Instant) -> Double {
        let remaining = Double(instant.millisecondsSinceEpoch - now(wall: wall).millisecondsSinceEpoch)
        guard remaining > 0 else { return 0 }
        return speed > 0 ? remaining / speed / 1000 : .infinity
    }

    private enum CodingKeys: String, CodingKey {
        case speed
        case simulatedAnchorMilliseconds = "simulated_anchor_ms"
        case wallAnchorMilliseconds = "wall_anchor_ms"
    }
}
