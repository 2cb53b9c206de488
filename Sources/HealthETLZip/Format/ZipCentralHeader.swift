/// The fixed part of a central directory record (APPNOTE 4.3.12), followed by the name, the extra
/// field and the comment.
public struct ZipCentralHeader: Sendable, Equatable {
    public static let signature: UInt32 = 0x0201_4b50
    /// Bytes before the name, signature included.
    public static let size = 46

    /// High byte: the host whose attributes `externalAttributes` holds; low byte: the spec version.
    public var versionMadeBy: UInt16
    public var versionNeeded: UInt16
    public var flags: UInt16
    public var method: UInt16
    public var modified: ZipTimestamp
    public var crc32: UInt32
    /// The classic fields: `ZipFormat.zip64Sentinel32` when a ZIP64 extra field holds the value.
    public var compressedSize: UInt32
    public var uncompressedSize: UInt32
    public var nameLength: UInt16
    public var extraLength: UInt16
    public var commentLength: UInt16
    public var diskNumberStart: UInt16
    public var internalAttributes: UInt16
    /// High 16 bits: the Unix mode (for a Unix host); low byte: the MS-DOS attributes.
    public var externalAttributes: UInt32
    public var localHeaderOffset: UInt32

    public init(
        versionMadeBy: UInt16, versionNeeded: UInt16, flags: UInt16, method: UInt16, modified: ZipTimestamp,
        crc32: UInt32, compressedSize: UInt32, uncompressedSize: UInt32, nameLength: UInt16,
        extraLength: UInt16, commentLength: UInt16 = 0, diskNumberStart: UInt16 = 0,
        internalAttributes: UInt16 = 0, externalAttributes: UInt32, localHeaderOffset: UInt32
    ) {
        self.versionMadeBy = versionMadeBy
        self.versionNeeded = versionNeeded
        self.flags = flags
        self.method = method
        self.modified = modified
        self.crc32 = crc32
        self.compressedSize = compressedSize
        self.uncompressedSize = uncompressedSize
        self.nameLength = nameLength
        self.extraLength = extraLength
        self.commentLength = commentLength
        self.diskNumberStart = diskNumberStart
        self.internalAttributes = internalAttributes
        self.externalAttributes = externalAttributes
        self.localHeaderOffset = localHeaderOffset
    }

    /// Appends the signature and the fixed fields; the name, extra field and comment go after them.
    public func append(to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(Self.signature)
        bytes.appendLittleEndian(versionMadeBy)
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
        bytes.appendLittleEndian(commentLength)
        bytes.appendLittleEndian(diskNumberStart)
        bytes.appendLittleEndian(internalAttributes)
        bytes.appendLittleEndian(externalAttributes)
        bytes.appendLittleEndian(localHeaderOffset)
    }

    /// Reads the fields that follow the signature, which the caller has already checked.
    init?(fieldsFrom reader: inout ZipByteReader) {
        guard let versionMadeBy = reader.uint16(), let versionNeeded = reader.uint16(),
            let flags = reader.uint16(), let method = reader.uint16(), let dosTime = reader.uint16(),
            let dosDate = reader.uint16(), let crc32 = reader.uint32(), let compressedSize = reader.uint32(),
            let uncompressedSize = reader.uint32(), let nameLength = reader.uint16(),
            let extraLength = reader.uint16(), let commentLength = reader.uint16(),
            let diskNumberStart = reader.uint16(), let internalAttributes = reader.uint16(),
            let externalAttributes = reader.uint32(), let localHeaderOffset = reader.uint32()
        else { return nil }
        self.init(
            versionMadeBy: versionMadeBy, versionNeeded: versionNeeded, flags: flags, method: method,
            modified: ZipTimestamp(dosTime: dosTime, dosDate: dosDate), crc32: crc32,
            compressedSize: compressedSize, uncompressedSize: uncompressedSize, nameLength: nameLength,
            extraLength: extraLength, commentLength: commentLength, diskNumberStart: diskNumberStart,
            internalAttributes: internalAttributes, externalAttributes: externalAttributes,
            localHeaderOffset: localHeaderOffset)
    }
}
