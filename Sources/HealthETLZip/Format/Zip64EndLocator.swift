/// The ZIP64 end of central directory locator (APPNOTE 4.3.15), just before the classic end
/// record: where the ZIP64 end record is.
public struct Zip64EndLocator: Sendable, Equatable {
    public static let signature: UInt32 = 0x0706_4b50
    public static let size = 20

    /// The disk holding the ZIP64 end record.
    public var recordDisk: UInt32
    public var recordOffset: UInt64
    public var diskCount: UInt32

    public init(recordDisk: UInt32 = 0, recordOffset: UInt64, diskCount: UInt32 = 1) {
        self.recordDisk = recordDisk
        self.recordOffset = recordOffset
        self.diskCount = diskCount
    }

    public func append(to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(Self.signature)
        bytes.appendLittleEndian(recordDisk)
        bytes.appendLittleEndian(recordOffset)
        bytes.appendLittleEndian(diskCount)
    }

    /// Reads the fields that follow the signature, which the caller has already checked.
    init?(fieldsFrom reader: inout ZipByteReader) {
        guard let recordDisk = reader.uint32(), let recordOffset = reader.uint64(),
            let diskCount = reader.uint32()
        else { return nil }
        self.init(recordDisk: recordDisk, recordOffset: recordOffset, diskCount: diskCount)
    }
}
