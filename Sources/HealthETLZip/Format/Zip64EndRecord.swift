/// The ZIP64 end of central directory record (APPNOTE 4.3.14), without extensible data: the
/// figures the classic end record has no room for.
public struct Zip64EndRecord: Sendable, Equatable {
    public static let signature: UInt32 = 0x0606_4b50
    public static let size = 56
    /// The record's own size field counts neither the signature nor itself.
    private static let sizeFieldValue = UInt64(size - 12)

    public var versionMadeBy: UInt16
    public var versionNeeded: UInt16
    public var disk: UInt32
    /// The disk where the central directory starts.
    public var directoryDisk: UInt32
    public var entriesOnDisk: UInt64
    public var entryCount: UInt64
    public var directorySize: UInt64
    public var directoryOffset: UInt64

    public init(
        versionMadeBy: UInt16, versionNeeded: UInt16, disk: UInt32 = 0, directoryDisk: UInt32 = 0,
        entriesOnDisk: UInt64, entryCount: UInt64, directorySize: UInt64, directoryOffset: UInt64
    ) {
        self.versionMadeBy = versionMadeBy
        self.versionNeeded = versionNeeded
        self.disk = disk
        self.directoryDisk = directoryDisk
        self.entriesOnDisk = entriesOnDisk
        self.entryCount = entryCount
        self.directorySize = directorySize
        self.directoryOffset = directoryOffset
    }

    public func append(to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(Self.signature)
        bytes.appendLittleEndian(Self.sizeFieldValue)
        bytes.appendLittleEndian(versionMadeBy)
        bytes.appendLittleEndian(versionNeeded)
        bytes.appendLittleEndian(disk)
        bytes.appendLittleEndian(directoryDisk)
        bytes.appendLittleEndian(entriesOnDisk)
        bytes.appendLittleEndian(entryCount)
        bytes.appendLittleEndian(directorySize)
        bytes.appendLittleEndian(directoryOffset)
    }

    /// Reads the fields that follow the signature, which the caller has already checked; the
    /// record's size field is passed over, since extensible data is never read.
    init?(fieldsFrom reader: inout ZipByteReader) {
        guard reader.skip(8), let versionMadeBy = reader.uint16(), let versionNeeded = reader.uint16(),
            let disk = reader.uint32(), let directoryDisk = reader.uint32(),
            let entriesOnDisk = reader.uint64(), let entryCount = reader.uint64(),
            let directorySize = reader.uint64(), let directoryOffset = reader.uint64()
        else { return nil }
        self.init(
            versionMadeBy: versionMadeBy, versionNeeded: versionNeeded, disk: disk,
            directoryDisk: directoryDisk,
            entriesOnDisk: entriesOnDisk, entryCount: entryCount, directorySize: directorySize,
            directoryOffset: directoryOffset)
    }
}
