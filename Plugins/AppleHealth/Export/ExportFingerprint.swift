import HealthETLCore

/// What tells one export from another when it carries no `ExportDate`: the main file's size and
/// a 64-bit FNV-1a hash of its first 64 KiB, as 16 hexadecimal digits. It names the stream, so a
/// rerun of the same undated file resumes from its own cursors and never from another file's.
enum ExportFingerprint {
    static let prefixBytes = 64 << 10

    static func of(_ files: any ExportFiles) -> String {
        var hash = FNV1a()
        var taken = 0
        do {
            try files.readMain { chunk in
                hash.add(chunk.prefix(prefixBytes - taken))
                taken += min(chunk.count, prefixBytes - taken)
                if taken >= prefixBytes { throw PrefixRead() }
            }
        } catch {
            // The prefix is all a fingerprint needs; damage in it is for the read to report.
        }
        hash.add(withUnsafeBytes(of: (files.mainSize ?? -1).littleEndian, Array.init))
        return hash.hex
    }

    private struct PrefixRead: Error {}
}
