/// The fixed part of a central directory record (APPNOTE 4.3.12), followed by the name, the extra
/// field and the comment: the local header's fields between who made it and where it is.
public struct ZipCentralHeader: Sendable, Equatable {
    public static let signature: UInt32 = 0x0201_4b50
    /// Bytes before the name, signature included.
    public static let size = 46

    /// High byte: the host whose attributes `externalAttributes` holds; low byte: the spec version.
    public var versionMadeBy: UInt16
    public var fields: ZipEntryFields
    public var commentLength: UInt16
    public var diskNumberStart: UInt16
    public var internalAttributes: UInt16
    /// High 16 bits: the Unix mode (for a Unix host); low byte: the MS-DOS attributes.
    public var externalAttributes: UInt32
    /// `ZipFormat.zip64Sentinel32` when a ZIP64 extra field holds the offset.
    public var localHeaderOffset: UInt32

    public init(
        versionMadeBy: UInt16, fields: ZipEntryFields, commentLength: UInt16 = 0, diskNumberStart: UInt16 = 0,
        internalAttributes: UInt16 = 0, externalAttributes: UInt32, localHeaderOffset: UInt32
    ) {
        self.versionMadeBy = versionMadeBy
        self.fields = fields
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
        fields.append(to: &bytes)
        bytes.appendLittleEndian(commentLength)
        bytes.appendLittleEndian(diskNumberStart)
        bytes.appendLittleEndian(internalAttributes)
        bytes.appendLittleEndian(externalAttributes)
        bytes.appendLittleEndian(localHeaderOffset)
    }

    /// Reads the fields that follow the signature, which the caller has already checked.
    init?(fieldsFrom reader: inout ZipByteReader) {
        guard let versionMadeBy = reader.uint16(), let fields = ZipEntryFields(from: &reader),
            let commentLength = reader.uint16(), let diskNumberStart = reader.uint16(),
            let internalAttributes = reader.uint16(), let externalAttributes = reader.uint32(),
            let localHeaderOffset = reader.uint32()
        else { return nil }
        self.init(
            versionMadeBy: versionMadeBy, fields: fields, commentLength: commentLength,
            diskNumberStart: diskNumberStart, internalAttributes: internalAttributes,
            externalAttributes: externalAttributes, localHeaderOffset: localHeaderOffset)
    }
}
