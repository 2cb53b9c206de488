/// The end of central directory record (APPNOTE 4.3.16), the last record of every archive,
/// followed by the archive comment.
public struct ZipEndRecord: Sendable, Equatable {
    public static let signature: UInt32 = 0x0605_4b50
    /// Bytes before the comment, signature included.
    public static let size = 22
    /// Where the comment's length sits within the record.
    public static let commentLengthOffset = 20

    public var disk: UInt16
    /// The disk where the central directory starts.
    public var directoryDisk: UInt16
    public var entriesOnDisk: UInt16
    /// Every field from here on holds its `ZipFormat.zip64Sentinel*` when the ZIP64 end record has it.
    public var entryCount: UInt16
    public var directorySize: UInt32
    public var directoryOffset: UInt32
    public var commentLength: UInt16

    public init(
        disk: UInt16 = 0, directoryDisk: UInt16 = 0, entriesOnDisk: UInt16, entryCount: UInt16,
        directorySize: UInt32, directoryOffset: UInt32, commentLength: UInt16
    ) {
        self.disk = disk
        self.directoryDisk = directoryDisk
        self.entriesOnDisk = entriesOnDisk
        self.entryCount = entryCount
        self.directorySize = directorySize
        self.directoryOffset = directoryOffset
        self.commentLength = commentLength
    }

    /// Appends the record; the comment goes after it.
    public func append(to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(Self.signature)
        bytes.appendLittleEndian(disk)
        bytes.appendLittleEndian(directoryDisk)
        bytes.appendLittleEndian(entriesOnDisk)
        bytes.appendLittleEndian(entryCount)
        bytes.appendLittleEndian(directorySize)
        bytes.appendLittleEndian(directoryOffset)
        bytes.appendLittleEndian(commentLength)
    }

    /// Reads the fields that follow the signature, which the caller has already checked.
    init?(fieldsFrom reader: inout ZipByteReader) {
        guard let disk = reader.uint16(), let directoryDisk = reader.uint16(),
            let entriesOnDisk = reader.uint16(), let entryCount = reader.uint16(),
            let directorySize = reader.uint32(), let directoryOffset = reader.uint32(),
            let commentLength = reader.uint16()
        else { return nil }
        self.init(
            disk: disk, directoryDisk: directoryDisk, entriesOnDisk: entriesOnDisk, entryCount: entryCount,
            directorySize: directorySize, directoryOffset: directoryOffset, commentLength: commentLength)
    }
}
