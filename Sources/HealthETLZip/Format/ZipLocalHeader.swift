/// The fixed part of a local file header (APPNOTE 4.3.7), which precedes each entry's data and is
/// followed by the name and the extra field.
public struct ZipLocalHeader: Sendable, Equatable {
    public static let signature: UInt32 = 0x0403_4b50
    /// Bytes before the name, signature included.
    public static let size = 30

    public var versionNeeded: UInt16
    public var flags: UInt16
    public var method: UInt16
    public var modified: ZipTimestamp
    public var crc32: UInt32
    /// The sizes' classic fields: `ZipFormat.zip64Sentinel32` when a ZIP64 extra field holds them.
    public var compressedSize: UInt32
    public var uncompressedSize: UInt32
    public var nameLength: UInt16
    public var extraLength: UInt16

    public init(
        versionNeeded: UInt16, flags: UInt16, method: UInt16, modified: ZipTimestamp, crc32: UInt32,
        compressedSize: UInt32, uncompressedSize: UInt32, nameLength: UInt16, extraLength: UInt16
    ) {
        self.versionNeeded = versionNeeded
        self.flags = flags
        self.method = method
        self.modified = modified
        self.crc32 = crc32
        self.compressedSize = compressedSize
        self.uncompressedSize = uncompressedSize
        self.nameLength = nameLength
        self.extraLength = extraLength
    }

    /// Appends the signature and the fixed fields; the name and the extra field go after them.
    public func append(to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(Self.signature)
        bytes.appendLittleEndian(versionNeeded)
        bytes.appendLittleEndian(flags)
        bytes.appendLittleEndian(method)
        bytes.appendLittleEndian(modified.dosTime)
        bytes.appendLittleEndian(modified.dosDate)
        bytes.appendLittleEndian(crc32)
        bytes.appendLittleEndian(compressedSize)
        bytes.appendLittleEndian(uncompressedSize)
        bytes.appendLittleEndian(nameLength)
        bytes.appendLittleEndian(extraLength)
    }

    /// Reads the fields that follow the signature, which the caller has already checked.
    init?(fieldsFrom reader: inout ZipByteReader) {
        guard let versionNeeded = reader.uint16(), let flags = reader.uint16(), let method = reader.uint16(),
            let dosTime = reader.uint16(), let dosDate = reader.uint16(), let crc32 = reader.uint32(),
            let compressedSize = reader.uint32(), let uncompressedSize = reader.uint32(),
            let nameLength = reader.uint16(), let extraLength = reader.uint16()
        else { return nil }
        self.init(
            versionNeeded: versionNeeded, flags: flags, method: method,
            modified: ZipTimestamp(dosTime: dosTime, dosDate: dosDate), crc32: crc32,
            compressedSize: compressedSize, uncompressedSize: uncompressedSize, nameLength: nameLength,
            extraLength: extraLength)
    }
}
