/// A fuzz input cut into chunks whose sizes follow from the input itself: a streaming parser then
/// carries its state across boundaries at ever different places (single bytes, short runs, long
/// runs, the rest at once), and a crash reproduces from the saved input alone.
struct FuzzChunks: Sequence, IteratorProtocol {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    private var state: UInt64

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        // FNV-1a of the input seeds the sizes: every mutation of the input moves the boundaries.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = hash
    }

    mutating func next() -> UnsafeRawBufferPointer? {
        guard offset < bytes.count else { return nil }
        // A linear congruential step (Knuth's MMIX constants) picks the next size.
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let pick = Int(truncatingIfNeeded: state >> 33)
        let size =
            switch pick % 4 {
            case 0: 1
            case 1: 1 + pick / 4 % 16
            case 2: 1 + pick / 4 % 4096
            default: bytes.count
            }
        let end = Swift.min(bytes.count, offset + size)
        defer { offset = end }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }
}
