/// Reads the central directory record by record, through a bounded window of the file.
///
/// The directory of a large export can hold hundreds of thousands of records, so it is read in
/// blocks rather than all at once, and never past the extent its end record declares.
struct ZipCentralDirectoryParser {
    private let file: ZipFileDescriptor
    private let end: UInt64
    private let blockSize: Int
    private var window: [UInt8] = []
    /// File offset of `window[0]`.
    private var windowStart: UInt64
    /// Index in `window` of the next record.
    private var cursor = 0

    init(file: ZipFileDescriptor, directory: ZipEndOfCentralDirectory, blockSize: Int = 1 << 20) {
        self.file = file
        self.end = directory.directoryEnd
        self.blockSize = blockSize
        self.windowStart = directory.directoryOffset
    }

    /// The file offset of the next record.
    var offset: UInt64 { windowStart + UInt64(cursor) }

    /// The next record, or nil once the directory's declared extent is used up.
    mutating func next() throws -> ZipEntry? {
        guard offset < end else { return nil }
        let recordOffset = offset
        try fill(ZipCentralHeader.size, at: recordOffset)
        var reader = ZipByteReader(window[cursor..<cursor + ZipCentralHeader.size])
        guard reader.uint32() == ZipCentralHeader.signature else {
            throw corrupt("there is no central directory record at byte \(recordOffset)")
        }
        // Within the 46 bytes just checked: it cannot fail.
        let header = ZipCentralHeader(fieldsFrom: &reader)!
        let fields = header.fields
        let nameLength = Int(fields.nameLength)
        let extraLength = Int(fields.extraLength)

        let recordLength = ZipCentralHeader.size + nameLength + extraLength + Int(header.commentLength)
        try fill(recordLength, at: recordOffset)
        let nameStart = cursor + ZipCentralHeader.size
        let rawName = window[nameStart..<nameStart + nameLength]
        let extra = window[nameStart + nameLength..<nameStart + nameLength + extraLength]
        cursor += recordLength

        // The disk number start, the last value a ZIP64 field may hold, is never needed here.
        let needsUncompressed = fields.uncompressedSize == ZipFormat.zip64Sentinel32
        let needsCompressed = fields.compressedSize == ZipFormat.zip64Sentinel32
        let needsOffset = header.localHeaderOffset == ZipFormat.zip64Sentinel32
        var zip64: Zip64ExtraField?
        var unicodePathField: ArraySlice<UInt8>?
        for field in ZipExtraField.Fields(extra) {
            switch field.id {
            case ZipFormat.zip64ExtraFieldID where zip64 == nil:
                zip64 = Zip64ExtraField(
                    field.data, hasUncompressedSize: needsUncompressed, hasCompressedSize: needsCompressed,
                    hasLocalHeaderOffset: needsOffset)
                if zip64 == nil { throw missingZip64(rawName) }
            case ZipFormat.unicodePathExtraFieldID:
                unicodePathField = field.data
            default:
                continue
            }
        }
        if (needsUncompressed || needsCompressed || needsOffset) && zip64 == nil {
            throw missingZip64(rawName)
        }

        let flags = fields.flags
        let externalAttributes = header.externalAttributes
        let unixMode = externalAttributes >> 16
        let name = ZipNameDecoder.decode(rawName, flags: flags, unicodePathField: unicodePathField)
        let lastByte = rawName.last
        return ZipEntry(
            name: name,
            method: fields.method,
            compressedSize: zip64?.compressedSize ?? UInt64(fields.compressedSize),
            uncompressedSize: zip64?.uncompressedSize ?? UInt64(fields.uncompressedSize),
            crc32: fields.crc32,
            localHeaderOffset: zip64?.localHeaderOffset ?? UInt64(header.localHeaderOffset),
            isDirectory: lastByte == UInt8(ascii: "/")
                || unixMode & ZipFormat.unixTypeMask == ZipFormat.unixDirectory
                || (Self.isDOSHost(header.versionMadeBy)
                    && externalAttributes & ZipFormat.dosDirectoryAttribute != 0),
            isSymbolicLink: unixMode & ZipFormat.unixTypeMask == ZipFormat.unixSymbolicLink,
            isEncrypted: flags & (ZipFormat.flagEncrypted | ZipFormat.flagStrongEncryption) != 0,
            modified: fields.modified)
    }

    /// Whether the "version made by" host uses MS-DOS attributes (MS-DOS, OS/2, NTFS, VFAT).
    private static func isDOSHost(_ versionMadeBy: UInt16) -> Bool {
        [0, 6, 10, 14].contains(versionMadeBy >> 8)
    }

    /// Makes `window[cursor..<cursor + count]` valid, reading more of the directory if needed.
    private mutating func fill(_ count: Int, at recordOffset: UInt64) throws {
        if window.count - cursor >= count { return }
        guard end - offset >= UInt64(count) else {
            throw corrupt(
                "the central directory record at byte \(recordOffset) runs past the directory's end")
        }
        window.removeFirst(cursor)
        windowStart += UInt64(cursor)
        cursor = 0
        let wanted = max(count, blockSize)
        let available = Int(min(UInt64(wanted), end - windowStart))
        let missing = available - window.count
        let block = try file.bytes(at: windowStart + UInt64(window.count), count: missing)
        guard block.count == missing else {
            throw ZipError(
                .truncated,
                "'\(file.path)' is incomplete: its central directory needs bytes up to "
                    + "\(windowStart + UInt64(available)) but the file ends at \(file.size). "
                    + ZipError.reexportAdvice)
        }
        window.append(contentsOf: block)
    }

    private func missingZip64(_ rawName: ArraySlice<UInt8>) -> ZipError {
        let name = String(decoding: rawName, as: UTF8.self)
        return ZipError(
            .corruptDirectory, entry: name,
            "'\(file.path)' is damaged: entry '\(name)' declares ZIP64 sizes but its ZIP64 extra field is "
                + "missing or too short (central directory near byte \(offset)). " + ZipError.reexportAdvice)
    }

    private func corrupt(_ problem: String) -> ZipError {
        ZipError(.corruptDirectory, "'\(file.path)' is damaged: \(problem). " + ZipError.reexportAdvice)
    }
}
