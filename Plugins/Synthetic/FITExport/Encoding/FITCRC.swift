/// The FIT protocol's CRC-16 (polynomial 0x8005, reflected as 0xA001, initial value 0), over the
/// header's first 12 bytes and over a whole file. Computed bit by bit once into a byte table.
enum FITCRC {
    private static let table: [UInt16] = (0..<256).map { byte in
        var crc = UInt16(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }

    static func update(_ crc: UInt16, with bytes: some Sequence<UInt8>) -> UInt16 {
        var crc = crc
        for byte in bytes { crc = (crc >> 8) ^ table[Int((crc ^ UInt16(byte)) & 0xFF)] }
        return crc
    }
}
