import HealthETLZip

/// Budgets small enough that no input spends long inflating, large enough to reach every check.
let limits = ZipLimits(maxEntryBytes: 1 << 20, maxCompressionRatio: 250, ratioGraceBytes: 64 << 10, maxEntries: 4096)

/// libFuzzer's entry point for the ZIP reader: opens each input as an archive (`ZipArchive` reads
/// a file) and reads every entry whole and by prefix. Beyond not crashing, an entry never yields
/// more bytes than it declares, and a read that completes yields exactly as many.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = FuzzScratch.write(UnsafeRawBufferPointer(start: data, count: size), as: "input.zip")
    guard let archive = try? ZipArchive(path: path, limits: limits) else { return 0 }
    for entry in archive.entries {
        _ = entry.hasUnsafePath
        _ = entry.isMacMetadata
        if let prefix = try? archive.prefix(of: entry, count: 64) {
            precondition(UInt64(prefix.count) <= min(64, entry.uncompressedSize), "a prefix longer than the entry")
        }
        var produced: UInt64 = 0
        do {
            try archive.read(entry, chunkSize: 4096) { chunk in
                produced += UInt64(chunk.count)
                precondition(produced <= entry.uncompressedSize, "more bytes than the entry declares")
            }
            precondition(produced == entry.uncompressedSize, "a completed read shorter than the entry declares")
        } catch {}
    }
    // The directory read once opens the same file again without a second read.
    _ = try? ZipArchive(path: path, directory: archive.directory, limits: limits)
    return 0
}
