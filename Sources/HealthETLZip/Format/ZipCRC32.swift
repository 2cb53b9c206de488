import CISAL

/// The CRC-32 every ZIP entry declares for its content (ISO-HDLC, zlib's `crc32`), computed by
/// ISA-L with carry-less multiplication.
public enum ZipCRC32 {
    /// The checksum of `bytes`, continuing from `crc`: the checksum of what came
    /// before, 0 at the start.
    @inline(__always)
    public static func update(_ crc: UInt32, with bytes: UnsafeRawBufferPointer) -> UInt32 {
        crc32_gzip_refl(crc, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        if let crc = bytes.withContiguousStorageIfAvailable({ update(0, with: UnsafeRawBufferPointer($0)) }) {
            return crc
        }
        return Array(bytes).withUnsafeBytes { update(0, with: $0) }
    }
}
