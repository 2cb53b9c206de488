/// The data descriptor (APPNOTE 4.3.9) that follows an entry's data when its local header has
/// `ZipFormat.flagDataDescriptor`: the CRC and sizes a streaming writer only knew at the end.
/// `ZipArchive` takes them from the central directory instead; `ZipStreamReader`, which has none
/// yet, reads and checks the descriptor.
public struct ZipDataDescriptor: Sendable, Equatable {
    public static let signature: UInt32 = 0x0807_4b50

    public var crc32: UInt32
    public var compressedSize: UInt64
    public var uncompressedSize: UInt64

    public init(crc32: UInt32, compressedSize: UInt64, uncompressedSize: UInt64) {
        self.crc32 = crc32
        self.compressedSize = compressedSize
        self.uncompressedSize = uncompressedSize
    }

    /// Appends the descriptor, its sizes in 64 bits for a ZIP64 entry and in 32 otherwise.
    public func append(to bytes: inout [UInt8], zip64: Bool) {
        bytes.appendLittleEndian(Self.signature)
        bytes.appendLittleEndian(crc32)
        if zip64 {
            bytes.appendLittleEndian(compressedSize)
            bytes.appendLittleEndian(uncompressedSize)
        } else {
            bytes.appendLittleEndian(UInt32(truncatingIfNeeded: compressedSize))
            bytes.appendLittleEndian(UInt32(truncatingIfNeeded: uncompressedSize))
        }
    }
}
