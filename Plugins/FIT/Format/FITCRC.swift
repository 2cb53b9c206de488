/// The FIT protocol's CRC-16 (polynomial 0xA001, reflected, initial 0), over a file's header and
/// data; a file's last two bytes hold it, little-endian.
enum FITCRC {
    /// The CRC of each byte value, built once.
    private static let table: [UInt16] = (0...255).map { byte in
        var crc = UInt16(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }

    /// `crc` carried on over `bytes`.
    static func update(_ crc: UInt16, with bytes: UnsafeRawBufferPointer) -> UInt16 {
        table.withUnsafeBufferPointer { table in
            var crc = crc
            for byte in bytes { crc = (crc >> 8) ^ table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] }
            return crc
        }
    }

    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt16 {
        update(0, with: bytes)
    }
}
