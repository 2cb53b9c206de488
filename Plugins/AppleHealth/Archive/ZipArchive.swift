/// A ZIP archive read in place: its directory at open, each entry's data streamed on demand.
///
/// Opening reads only the end of the file and the central directory. Nothing is ever extracted or
/// written anywhere; names are reported, never turned into paths. Every size, offset and ratio
/// an archive declares is treated as hostile until checked.
///
/// Not `Sendable`: it owns a file descriptor and is meant to be confined to one thread.
public final class ZipArchive {
    public let path: String
    /// The entries in central directory order.
    public let entries: [ZipEntry]
    public let fileSize: UInt64

    private let limits: ZipLimits
    private let file: ZipFileDescriptor
    private let directoryOffset: UInt64
    /// Indices into `entries` by ascending local header offset: each entry's data must end
    /// before the next one's header.
    private let layoutOrder: [Int]

    /// Opens the archive and checks its directory.
    ///
    /// - Throws: `ZipError`: `.io` if the file cannot be read, `.notAZip`, `.truncated` or
    ///   `.corruptDirectory` if its directory is missing or inconsistent, `.tooManyEntries`, and
    ///   `.overlappingEntries` if two entries claim the same bytes.
    public init(path: String, limits: ZipLimits = ZipLimits()) throws {
        let file = try ZipFileDescriptor(path: path)
        let directory = try ZipEndOfCentralDirectory.locate(in: file)
        let tooMany = ZipError(
            .tooManyEntries,
            "'\(path)' declares \(directory.entryCount) entries, more than the \(limits.maxEntries) "
                + "healthetl accepts, far more than any Health export holds. " + ZipError.reexportAdvice)
        guard directory.entryCount <= UInt64(max(limits.maxEntries, 0)) else { throw tooMany }

        var parser = ZipCentralDirectoryParser(file: file, directory: directory)
        var entries: [ZipEntry] = []
        let minimumRecordSize = UInt64(ZipFormat.centralHeaderSize)
        entries.reserveCapacity(Int(min(directory.entryCount, directory.directorySize / minimumRecordSize)))
        while let entry = try parser.next() {
            guard entries.count < limits.maxEntries else { throw tooMany }
            entries.append(entry)
        }
        guard Self.countMatches(UInt64(entries.count), directory) else {
            throw ZipError(
                .corruptDirectory,
                "'\(path)' is damaged: its end record declares \(directory.entryCount) entries but its central "
                    + "directory (bytes \(directory.directoryOffset)..<\(directory.directoryEnd)) holds "
                    + "\(entries.count). " + ZipError.reexportAdvice)
        }

        self.layoutOrder = try Self.checkLayout(
            of: entries, directoryOffset: directory.directoryOffset, in: file)
        self.path = path
        self.entries = entries
        self.fileSize = file.size
        self.limits = limits
        self.file = file
        self.directoryOffset = directory.directoryOffset
    }

    /// Streams the entry's uncompressed bytes to `consume` in chunks of at most `chunkSize`,
    /// verifying at the end that the byte count equals uncompressedSize and the CRC-32 matches.
    /// Aborts as soon as output exceeds the declared size (never inflates past it), or the ratio/size limits.
    ///
    /// Bytes already passed to `consume` are unverified until this returns: a consumer that keeps
    /// them must discard them when it throws.
    /// - Throws: `ZipError`, or whatever `consume` throws.
    public func read(
        _ entry: ZipEntry, chunkSize: Int = 1 << 20, into consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var reader = ZipEntryReader(
            file: file, entry: entry, data: try dataRange(of: entry), limits: limits, chunkSize: chunkSize)
        try reader.run(stoppingAfter: nil, into: consume)
    }

    /// The first `count` uncompressed bytes (or fewer if the entry is shorter), for detecting a file by content.
    ///
    /// The CRC is checked only when the whole entry fits in `count`.
    public func prefix(of entry: ZipEntry, count: Int) throws -> [UInt8] {
        let range = try dataRange(of: entry)
        guard count > 0 else { return [] }
        var result: [UInt8] = []
        result.reserveCapacity(Int(min(UInt64(count), entry.uncompressedSize, 1 << 20)))
        var reader = ZipEntryReader(
            file: file, entry: entry, data: range, limits: limits, chunkSize: min(count, 1 << 16))
        try reader.run(stoppingAfter: UInt64(count)) { chunk in
            result.append(contentsOf: chunk.prefix(count - result.count))
        }
        return result
    }

    /// Whether the number of records found agrees with the end record's count. Some writers wrap
    /// the 16-bit count past 65535 entries instead of writing ZIP64 records, or leave it at 0xFFFF.
    private static func countMatches(_ found: UInt64, _ directory: ZipEndOfCentralDirectory) -> Bool {
        if found == directory.entryCount { return true }
        guard !directory.isZip64 else { return false }
        return found & 0xFFFF == directory.entryCount
            || (directory.entryCount == UInt64(ZipFormat.zip64Sentinel16) && found > directory.entryCount)
    }

    /// Checks that no two entries can share bytes and that none reaches into the central directory,
    /// using the least each entry must occupy (its fixed local header plus its compressed data);
    /// `dataRange(of:)` later checks the exact extent.
    /// - Returns: the indices of `entries` by ascending local header offset.
    private static func checkLayout(
        of entries: [ZipEntry], directoryOffset: UInt64, in file: ZipFileDescriptor
    ) throws -> [Int] {
        let order = entries.indices.sorted { entries[$0].localHeaderOffset < entries[$1].localHeaderOffset }
        var previous: ZipEntry?
        var previousEnd: UInt64 = 0
        for index in order {
            let entry = entries[index]
            let start = entry.localHeaderOffset
            if let previous, start < previousEnd {
                throw ZipError.entry(
                    .overlappingEntries, entry, in: file.path,
                    "its local header at byte \(start) lies inside entry '\(previous.name)' (bytes "
                        + "\(previous.localHeaderOffset)..<\(previousEnd)); overlapping entries are how zip "
                        + "bombs multiply their output, so the archive is refused")
            }
            let (end, overflow) = start.addingReportingOverflow(
                UInt64(ZipFormat.localHeaderSize) &+ min(entry.compressedSize, file.size))
            guard !overflow, end <= directoryOffset else {
                throw ZipError.entry(
                    .corruptDirectory, entry, in: file.path,
                    "its local header (byte \(start)) and \(entry.compressedSize) bytes of data do not fit before "
                        + "the central directory at byte \(directoryOffset)")
            }
            previous = entry
            previousEnd = end
        }
        return order
    }

    /// The exact bytes holding the entry's compressed data, after checking its local header and
    /// everything that can be rejected before reading data.
    private func dataRange(of entry: ZipEntry) throws -> Range<UInt64> {
        guard let next = nextHeaderOffset(after: entry) else {
            throw ZipError.entry(
                .corruptDirectory, entry, in: path,
                "this archive has no such entry at byte \(entry.localHeaderOffset)",
                advice: "Read only entries from this archive's own `entries`.")
        }
        if entry.isEncrypted {
            throw ZipError.entry(
                .encrypted, entry, in: path,
                "the entry is encrypted, and healthetl does not read encrypted archives",
                advice:
                    "Unzip it with its password and import the export folder, or \(ZipError.reexportClause).")
        }
        guard entry.method == ZipFormat.methodStored || entry.method == ZipFormat.methodDeflated else {
            throw ZipError.entry(
                .unsupportedMethod, entry, in: path,
                "it is compressed with method \(entry.method); healthetl reads only stored (0) and deflate (8)",
                advice: "Unzip it with a tool that knows the method and import the export folder, or "
                    + "\(ZipError.reexportClause).")
        }
        try checkDeclaredSizes(of: entry)

        let headerSize = ZipFormat.localHeaderSize
        var header = ZipByteReader(try file.bytes(at: entry.localHeaderOffset, count: headerSize))
        guard header.remaining == headerSize else {
            throw ZipError.entry(
                .truncated, entry, in: path,
                "its local header at byte \(entry.localHeaderOffset) is cut off by the end of the file "
                    + "(\(fileSize) bytes)")
        }
        guard header.uint32() == ZipFormat.localHeaderSignature, header.skip(2), let flags = header.uint16(),
            let method = header.uint16(), header.skip(16), let nameLength = header.uint16(),
            let extraLength = header.uint16()
        else {
            throw ZipError.entry(
                .corruptData, entry, in: path,
                "the central directory points at byte \(entry.localHeaderOffset), but there is no local header there"
            )
        }
        if flags & ZipFormat.flagEncrypted != 0 {
            throw ZipError.entry(
                .encrypted, entry, in: path,
                "its local header (byte \(entry.localHeaderOffset)) marks it encrypted, and healthetl does not "
                    + "read encrypted archives",
                advice:
                    "Unzip it with its password and import the export folder, or \(ZipError.reexportClause).")
        }
        guard method == entry.method else {
            throw ZipError.entry(
                .corruptData, entry, in: path,
                "its local header (byte \(entry.localHeaderOffset)) says compression method \(method) but the "
                    + "central directory says \(entry.method)")
        }
        let dataStart = entry.localHeaderOffset + UInt64(headerSize + Int(nameLength) + Int(extraLength))
        let dataEnd = dataStart + entry.compressedSize  // cannot overflow: checkLayout bounded both terms
        guard dataEnd <= fileSize else {
            throw ZipError.entry(
                .truncated, entry, in: path,
                "its data needs bytes \(dataStart)..<\(dataEnd) but the file ends at byte \(fileSize)")
        }
        guard dataEnd <= next else {
            let neighbour =
                next == directoryOffset ? "the central directory" : "the next entry's local header"
            throw ZipError.entry(
                next == directoryOffset ? .corruptDirectory : .overlappingEntries, entry, in: path,
                "its data (bytes \(dataStart)..<\(dataEnd)) runs into \(neighbour) at byte \(next)")
        }
        return dataStart..<dataEnd
    }

    /// Rejects entries whose declared sizes break the limits or contradict each other.
    private func checkDeclaredSizes(of entry: ZipEntry) throws {
        guard entry.uncompressedSize <= limits.maxEntryBytes else {
            throw ZipError.entry(
                .compressionBomb, entry, in: path,
                "it declares \(entry.uncompressedSize) uncompressed bytes, more than the limit of "
                    + "\(limits.maxEntryBytes)")
        }
        guard !limits.exceedsRatio(produced: entry.uncompressedSize, consumed: entry.compressedSize) else {
            throw ZipError.entry(
                .compressionBomb, entry, in: path,
                "it declares \(entry.uncompressedSize) bytes from \(entry.compressedSize) compressed bytes, a "
                    + "ratio above the \(limits.maxCompressionRatio):1 limit that only zip bombs reach "
                    + "(local header at byte \(entry.localHeaderOffset))")
        }
        if entry.method == ZipFormat.methodStored && entry.compressedSize != entry.uncompressedSize {
            throw ZipError.entry(
                .sizeMismatch, entry, in: path,
                "it is stored uncompressed, yet declares \(entry.compressedSize) bytes stored and "
                    + "\(entry.uncompressedSize) bytes of content (local header at byte \(entry.localHeaderOffset))"
            )
        }
    }

    /// The local header offset following `entry`'s, or the directory's; nil if `entry` is not one
    /// of this archive's.
    private func nextHeaderOffset(after entry: ZipEntry) -> UInt64? {
        var low = 0
        var high = layoutOrder.count
        while low < high {
            let middle = (low + high) / 2
            if entries[layoutOrder[middle]].localHeaderOffset < entry.localHeaderOffset {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low < layoutOrder.count, entries[layoutOrder[low]] == entry else { return nil }
        return low + 1 < layoutOrder.count ? entries[layoutOrder[low + 1]].localHeaderOffset : directoryOffset
    }
}
