/// The one source of randomness (retry jitter), injected so tests are exact.
public struct Randomness: Sendable {
    private let draw: @Sendable () -> Double

    /// - Parameter unitInterval: returns a value uniform in [0, 1).
    public init(unitInterval: @escaping @Sendable () -> Double) {
        draw = unitInterval
    }

    public static let system = Randomness { Double.random(in: 0..<1) }

    /// A value uniform in [0, 1).
    public func unitInterval() -> Double { draw() }
}
