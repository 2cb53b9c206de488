/// What tells one export from another when it carries no `ExportDate`: the main file's size and
/// a 64-bit FNV-1a hash of its first 64 KiB, as 16 hexadecimal digits. It names the stream, so a
/// rerun of the same undated file resumes from its own cursors and never from another file's.
enum ExportFingerprint {
    static let prefixBytes = 64 << 10

    static func of(_ files: any ExportFiles) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var taken = 0
        do {
            try files.readMain { chunk in
                for byte in chunk.prefix(prefixBytes - taken) {
                    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                }
                taken += min(chunk.count, prefixBytes - taken)
                if taken >= prefixBytes { throw PrefixRead() }
            }
        } catch {
            // The prefix is all a fingerprint needs; damage in it is for the read to report.
        }
        for byte in withUnsafeBytes(of: (files.mainSize ?? -1).littleEndian, Array.init) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private struct PrefixRead: Error {}
}
