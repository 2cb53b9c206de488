import CZstd

/// One zstd frame of a whole request body (`Content-Encoding: zstd`); the benchmark and the
/// collector's tests compress their bodies with it too.
public enum ZstdFrame {
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
}
