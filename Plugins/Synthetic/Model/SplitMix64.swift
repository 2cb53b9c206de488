/// A small, fast, seedable PRNG (SplitMix64). The generator never touches Foundation's random
/// sources, so a seed always produces byte-identical output on every platform.
struct SplitMix64 {
    private var state: UInt64

    init(state: UInt64) { self.state = state }

    /// The SplitMix64 output function, used on its own to derive independent stream seeds.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    @inline(__always)
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    @inline(__always)
    mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform in [low, high).
    @inline(__always)
    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Uniform integer in the closed range low...high.
    @inline(__always)
    mutating func int(_ low: Int, _ high: Int) -> Int {
        low + Int(next() % UInt64(high - low + 1))
    }

    /// Uniform integer in the closed range low...high.
    @inline(__always)
    mutating func int64(_ low: Int64, _ high: Int64) -> Int64 {
        low + Int64(next() % UInt64(high - low + 1))
    }

    @inline(__always)
    mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// Roughly normal (Irwin–Hall of four uniforms), clamped to ±3.4 standard deviations.
    @inline(__always)
    mutating func normal(_ mean: Double, _ deviation: Double) -> Double {
        let sum = unit() + unit() + unit() + unit() - 2.0
        return mean + deviation * sum * 1.732_050_807_568_877
    }
}
