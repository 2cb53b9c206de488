/// The FIT protocol's CRC-16 (polynomial 0x8005, reflected as 0xA001, initial 0), over a
/// header's first 12 bytes and over a whole file; a file's last two bytes hold it, little-endian.
public enum FITCRC {
    /// The CRC of each byte value, built once.
    @usableFromInline static let table: [UInt16] = (0...255).map { byte in
        var crc = UInt16(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }

    /// `crc` carried on over `bytes` (inlinable: every byte of every file goes through it).
    @inlinable public static func update(_ crc: UInt16, with bytes: some Sequence<UInt8>) -> UInt16 {
        table.withUnsafeBufferPointer { table in
            var crc = crc
            for byte in bytes { crc = (crc >> 8) ^ table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] }
            return crc
        }
    }

    @inlinable public static func of(_ bytes: some Sequence<UInt8>) -> UInt16 {
        update(0, with: bytes)
    }
}
