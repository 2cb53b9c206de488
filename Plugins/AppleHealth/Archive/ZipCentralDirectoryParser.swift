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
        try fill(ZipFormat.centralHeaderSize, at: recordOffset)
        var header = ZipByteReader(window[cursor..<cursor + ZipFormat.centralHeaderSize])
        guard header.uint32() == ZipFormat.centralHeaderSignature else {
            throw corrupt("there is no central directory record at byte \(recordOffset)")
        }
        // Every read below is within the 46 bytes just checked.
        let versionMadeBy = header.uint16()!
        _ = header.uint16()!  // version needed to extract
        let flags = header.uint16()!
        let method = header.uint16()!
        _ = header.uint32()!  // modification time and date
        let crc32 = header.uint32()!
        let compressedSize32 = header.uint32()!
        let uncompressedSize32 = header.uint32()!
        let nameLength = Int(header.uint16()!)
        let extraLength = Int(header.uint16()!)
        let commentLength = Int(header.uint16()!)
        _ = header.uint16()!  // disk number start: the last ZIP64 field, never needed here
        _ = header.uint16()!  // internal attributes
        let externalAttributes = header.uint32()!
        let localHeaderOffset32 = header.uint32()!

        let recordLength = ZipFormat.centralHeaderSize + nameLength + extraLength + commentLength
        try fill(recordLength, at: recordOffset)
        let nameStart = cursor + ZipFormat.centralHeaderSize
        let rawName = window[nameStart..<nameStart + nameLength]
        let extra = window[nameStart + nameLength..<nameStart + nameLength + extraLength]
        cursor += recordLength

        // ZIP64 fields appear only for the 32/16-bit fields holding the sentinel, in this order.
        var uncompressedSize = UInt64(uncompressedSize32)
        var compressedSize = UInt64(compressedSize32)
        var localHeaderOffset = UInt64(localHeaderOffset32)
        let needsUncompressed = uncompressedSize32 == ZipFormat.zip64Sentinel32
        let needsCompressed = compressedSize32 == ZipFormat.zip64Sentinel32
        let needsOffset = localHeaderOffset32 == ZipFormat.zip64Sentinel32
        var unicodePathField: ArraySlice<UInt8>?
        var foundZip64 = false
        var fields = ZipByteReader(extra)
        while let id = fields.uint16(), let size = fields.uint16(), let data = fields.bytes(Int(size)) {
            switch id {
            case ZipFormat.zip64ExtraFieldID where !foundZip64:
                foundZip64 = true
                var values = ZipByteReader(data)
                func value() throws -> UInt64 {
                    guard let value = values.uint64() else { throw missingZip64(rawName) }
                    return value
                }
                if needsUncompressed { uncompressedSize = try value() }
                if needsCompressed { compressedSize = try value() }
                if needsOffset { localHeaderOffset = try value() }
            case ZipFormat.unicodePathExtraFieldID:
                unicodePathField = data
            default:
                continue
            }
        }
        if (needsUncompressed || needsCompressed || needsOffset) && !foundZip64 {
            throw missingZip64(rawName)
        }

        let unixMode = externalAttributes >> 16
        let name = ZipNameDecoder.decode(rawName, flags: flags, unicodePathField: unicodePathField)
        let lastByte = rawName.last
        return ZipEntry(
            name: name,
            method: method,
            compressedSize: compressedSize,
            uncompressedSize: uncompressedSize,
            crc32: crc32,
            localHeaderOffset: localHeaderOffset,
            isDirectory: lastByte == UInt8(ascii: "/")
                || unixMode & ZipFormat.unixTypeMask == ZipFormat.unixDirectory
                || (Self.isDOSHost(versionMadeBy)
                    && externalAttributes & ZipFormat.dosDirectoryAttribute != 0),
            isSymbolicLink: unixMode & ZipFormat.unixTypeMask == ZipFormat.unixSymbolicLink,
            isEncrypted: flags & (ZipFormat.flagEncrypted | ZipFormat.flagStrongEncryption) != 0)
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
