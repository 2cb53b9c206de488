extension SplitMix64 {
    /// An independent generator for one part of an export (a kind of file, and a day or person
    /// in it). Mixing the seed first keeps seed 1's day 5 apart from seed 5's day 1.
    static func substream(seed: UInt64, kind: UInt64, index: Int) -> SplitMix64 {
        SplitMix64(state: mix(mix(seed ^ kind) &+ UInt64(bitPattern: Int64(index))))
    }
}
