/// Where the central directory is and how many records it holds, from the end-of-central-directory
/// record (and its ZIP64 counterpart when present).
struct ZipEndOfCentralDirectory {
    /// The number of central directory records the archive declares.
    var entryCount: UInt64
    var directoryOffset: UInt64
    var directorySize: UInt64
    /// True when the figures came from a ZIP64 end record.
    var isZip64: Bool

    var directoryEnd: UInt64 { directoryOffset + directorySize }

    /// Finds the end record by scanning backwards over the largest possible archive comment.
    ///
    /// A record whose comment exactly reaches the end of the file is preferred, so a signature
    /// hidden inside a comment or in trailing data cannot shadow the real one.
    static func locate(in file: ZipFileDescriptor) throws -> ZipEndOfCentralDirectory {
        let recordSize = UInt64(ZipEndRecord.size)
        guard file.size >= recordSize else {
            throw ZipError(
                .notAZip,
                "'\(file.path)' is not a ZIP archive: it is only \(file.size) bytes long. "
                    + "Pass the export.zip the Health app wrote, or the unzipped export.xml.")
        }
        let tailLength = min(file.size, recordSize + UInt64(ZipFormat.maxCommentLength))
        let tailStart = file.size - tailLength
        let tail = try file.bytes(at: tailStart, count: Int(tailLength))
        guard UInt64(tail.count) == tailLength else {
            throw ZipError(
                .truncated,
                "'\(file.path)' shrank while it was being read. Let the copy finish, then try again.")
        }

        var exactFits: [Int] = []
        var shortFits: [Int] = []
        var cutShort = false
        var index = tail.count - ZipEndRecord.size
        while index >= 0 {
            defer { index -= 1 }
            var reader = ZipByteReader(tail[index...])
            guard reader.uint32() == ZipEndRecord.signature,
                reader.skip(ZipEndRecord.commentLengthOffset - 4),
                let commentLength = reader.uint16()
            else { continue }
            let recordEnd = index + ZipEndRecord.size + Int(commentLength)
            if recordEnd == tail.count {
                exactFits.append(index)
            } else if recordEnd < tail.count {
                shortFits.append(index)
            } else {
                cutShort = true
            }
        }

        var firstError: ZipError?
        for index in exactFits + shortFits {
            do {
                return try parse(tail[index...], at: tailStart + UInt64(index), in: file)
            } catch let error as ZipError {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        if cutShort {
            throw ZipError(
                .truncated,
                "'\(file.path)' is incomplete: its end record announces a comment longer than the "
                    + "\(file.size)-byte file holds, so the file was cut short. Copy export.zip again in full; "
                    + "if the original is damaged too, \(ZipError.reexportClause).")
        }
        throw ZipError(
            .notAZip,
            "'\(file.path)' is not a ZIP archive: no end-of-central-directory record in its last "
                + "\(tailLength) bytes. Pass the export.zip the Health app wrote, or the unzipped export.xml; "
                + "if this was an export.zip, it is damaged or incomplete. " + ZipError.reexportAdvice)
    }

    /// Reads the record at `offset` and, when a ZIP64 locator precedes it, the ZIP64 end record.
    private static func parse(
        _ bytes: ArraySlice<UInt8>, at offset: UInt64, in file: ZipFileDescriptor
    ) throws -> ZipEndOfCentralDirectory {
        var reader = ZipByteReader(bytes)
        guard reader.uint32() == ZipEndRecord.signature, let record = ZipEndRecord(fieldsFrom: &reader) else {
            throw corrupt(file, at: offset, "its end record is cut short")
        }

        var end = ZipEndOfCentralDirectory(
            entryCount: UInt64(record.entryCount), directoryOffset: UInt64(record.directoryOffset),
            directorySize: UInt64(record.directorySize), isZip64: false)
        // Everything before this boundary may belong to the central directory.
        var boundary = offset

        let locatorSize = UInt64(Zip64EndLocator.size)
        let locatorBytes =
            offset >= locatorSize ? try file.bytes(at: offset - locatorSize, count: Int(locatorSize)) : []
        var locatorReader = ZipByteReader(locatorBytes)
        if locatorReader.uint32() == Zip64EndLocator.signature {
            let locatorOffset = offset - locatorSize
            guard let locator = Zip64EndLocator(fieldsFrom: &locatorReader) else {
                throw corrupt(file, at: locatorOffset, "its ZIP64 locator is cut short")
            }
            let recordOffset = locator.recordOffset
            guard locator.diskCount <= 1 else { throw spanned(file) }
            let recordSize = UInt64(Zip64EndRecord.size)
            guard recordOffset <= locatorOffset, locatorOffset - recordOffset >= recordSize else {
                throw corrupt(
                    file, at: locatorOffset,
                    "its ZIP64 locator points at byte \(recordOffset), where no ZIP64 end record fits")
            }
            var recordReader = ZipByteReader(try file.bytes(at: recordOffset, count: Int(recordSize)))
            guard recordReader.uint32() == Zip64EndRecord.signature else {
                throw corrupt(file, at: recordOffset, "there is no ZIP64 end record where its locator points")
            }
            guard let record64 = Zip64EndRecord(fieldsFrom: &recordReader) else {
                throw corrupt(file, at: recordOffset, "its ZIP64 end record is cut short")
            }
            guard record64.disk == 0, record64.directoryDisk == 0 else { throw spanned(file) }
            end = ZipEndOfCentralDirectory(
                entryCount: record64.entryCount, directoryOffset: record64.directoryOffset,
                directorySize: record64.directorySize, isZip64: true)
            boundary = recordOffset
        } else if record.disk != 0 || record.directoryDisk != 0 {
            throw spanned(file)
        }

        guard end.directoryOffset <= boundary, end.directorySize <= boundary - end.directoryOffset else {
            throw corrupt(
                file, at: offset,
                "its end record places the central directory at bytes \(end.directoryOffset)"
                    + "..<\(end.directoryOffset &+ end.directorySize), past the end record at byte \(boundary)"
            )
        }
        return end
    }

    private static func corrupt(_ file: ZipFileDescriptor, at offset: UInt64, _ problem: String) -> ZipError {
        ZipError(
            .corruptDirectory,
            "'\(file.path)' is damaged: \(problem) (byte \(offset)). " + ZipError.reexportAdvice)
    }

    private static func spanned(_ file: ZipFileDescriptor) -> ZipError {
        ZipError(
            .corruptDirectory,
            "'\(file.path)' is one part of a split (multi-disk) archive, which healthetl cannot read. "
                + "Join the parts into one file (zip -s 0 export.zip --out joined.zip) and import that, or "
                + "\(ZipError.reexportClause).")
    }
}
