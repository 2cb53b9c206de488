/// Random damage to a document for differential tests: a few bytes flipped, dropped, doubled or
/// replaced by the format's own punctuation.
public enum ByteDamage {
    /// `bytes` with 1 to `maximumEdits` random edits.
    public static func damaged(
        _ bytes: [UInt8], punctuation: [UInt8], maximumEdits: Int, random: inout SeededGenerator
    ) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<(1 + Int(random.next() % UInt64(maximumEdits))) {
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 4 {
            case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(bytes[at], at: at)
            default: bytes[at] = punctuation[Int(random.next() % UInt64(punctuation.count))]
            }
        }
        return bytes
    }
}
