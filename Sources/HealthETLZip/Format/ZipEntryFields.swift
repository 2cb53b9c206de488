/// What a local header and a central directory record both say about an entry, in the same order
/// in both (APPNOTE 4.3.7 and 4.3.12): from "version needed to extract" to "extra field length".
public struct ZipEntryFields: Sendable, Equatable {
    /// Their size in bytes.
    static let size = 26

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

    func append(to bytes: inout [UInt8]) {
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

    init?(from reader: inout ZipByteReader) {
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
