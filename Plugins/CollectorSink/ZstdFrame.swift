import CZstd

/// One zstd frame of a whole request body (`Content-Encoding: zstd`); the benchmark and the
/// collector's tests compress their bodies with it too.
public enum ZstdFrame {
    /// The zstd library this process runs against, for `--version`.
    public static var libraryVersion: String { String(cString: ZSTD_versionString()) }

    public static func compress(_ bytes: [UInt8], level: Int32) throws(CollectorSinkError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
        let size = output.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { source in
                ZSTD_compress(target.baseAddress, target.count, source.baseAddress, source.count, level)
            }
        }
        guard ZSTD_isError(size) == 0 else {
            throw CollectorSinkError(
                .encodingFailed,
                "zstd could not compress the batch: \(String(cString: ZSTD_getErrorName(size)))")
        }
        output.removeSubrange(size...)
        return output
    }

    /// The size a frame decompresses to, as its header records it (`compress` always records
    /// it); `nil` when the header does not say or is not a zstd frame header.
    public static func contentSize(_ frame: [UInt8]) -> Int? {
        let size = frame.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
        // The two largest values are "unknown" and "error".
        guard size < UInt64.max - 1, size <= UInt64(Int.max) else { return nil }
        return Int(size)
    }
}
