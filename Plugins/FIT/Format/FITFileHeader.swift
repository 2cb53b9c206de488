import HealthETLFIT

/// A FIT file's header: its size (12 or 14 bytes, or more in later protocol versions), the
/// data size it declares, and whether its own CRC (14-byte headers) holds.
struct FITFileHeader: Sendable, Equatable {
    static let minimumSize = 12
    let size: Int
    let dataSize: UInt32
    let protocolVersion: UInt8
    let profileVersion: UInt16

    /// Reads a header from `bytes` (at least `minimumSize`, and `size` once known).
    /// - Returns: `nil` while more bytes are needed for a longer header.
    /// - Throws: `FITDamage` (offset relative to the header) when it is not a FIT header.
    static func read(_ bytes: UnsafeRawBufferPointer) throws(FITDamage) -> FITFileHeader? {
        let size = Int(bytes[0])
        guard size >= minimumSize,
            bytes[8] == UInt8(ascii: "."), bytes[9] == UInt8(ascii: "F"), bytes[10] == UInt8(ascii: "I"),
            bytes[11] == UInt8(ascii: "T")
        else {
            throw FITDamage(offset: 0, reason: "not a FIT file header (no \".FIT\" signature)")
        }
        guard bytes.count >= size else { return nil }
        if size >= 14 {
            let declared = UInt16(bytes[12]) | UInt16(bytes[13]) << 8
            // 0 means the writer computed none.
            if declared != 0, declared != FITCRC.of(UnsafeRawBufferPointer(rebasing: bytes[0..<12])) {
                throw FITDamage(offset: 12, reason: "the file header's CRC does not match its bytes")
            }
        }
        return FITFileHeader(
            size: size,
            dataSize: UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 24,
            protocolVersion: bytes[1], profileVersion: UInt16(bytes[2]) | UInt16(bytes[3]) << 8)
    }
}
