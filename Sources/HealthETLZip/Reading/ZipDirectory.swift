/// An archive's central directory, read and checked once: its entries, and where each one's bytes
/// may lie.
///
/// A value, so that what one `ZipArchive` read can open the same file again without reading the
/// directory twice (`ZipArchive(path:directory:limits:)`).
public struct ZipDirectory: Sendable {
    /// The entries in central directory order.
    public let entries: [ZipEntry]
    /// Where the central directory starts: no entry's bytes may reach into it.
    let offset: UInt64
    /// Indices into `entries` by ascending local header offset: each entry's data must end
    /// before the next one's header.
    let layoutOrder: [Int]
    /// The file it was read from.
    let file: ZipFileIdentity

    /// Reads the directory and checks that it agrees with its end record and that no two entries
    /// can share bytes.
    ///
    /// - Throws: `ZipError`: `.io` if the file cannot be read, `.notAZip`, `.truncated` or
    ///   `.corruptDirectory` if the directory is missing or inconsistent, `.tooManyEntries`, and
    ///   `.overlappingEntries` if two entries claim the same bytes.
    init(reading file: ZipFileDescriptor, limits: ZipLimits) throws {
        let end = try ZipEndOfCentralDirectory.locate(in: file)
        let tooMany = ZipError(
            .tooManyEntries,
            "'\(file.path)' declares \(end.entryCount) entries, more than the \(limits.maxEntries) "
                + "healthetl accepts, far more than any Health export holds. " + ZipError.reexportAdvice)
        guard end.entryCount <= UInt64(max(limits.maxEntries, 0)) else { throw tooMany }

        var parser = ZipCentralDirectoryParser(file: file, directory: end)
        var entries: [ZipEntry] = []
        let minimumRecordSize = UInt64(ZipCentralHeader.size)
        entries.reserveCapacity(Int(min(end.entryCount, end.directorySize / minimumRecordSize)))
        while let entry = try parser.next() {
            guard entries.count < limits.maxEntries else { throw tooMany }
            entries.append(entry)
        }
        guard Self.countMatches(UInt64(entries.count), end) else {
            throw ZipError(
                .corruptDirectory,
                "'\(file.path)' is damaged: its end record declares \(end.entryCount) entries but its central "
                    + "directory (bytes \(end.directoryOffset)..<\(end.directoryEnd)) holds "
                    + "\(entries.count). " + ZipError.reexportAdvice)
        }

        self.layoutOrder = try Self.checkLayout(of: entries, directoryOffset: end.directoryOffset, in: file)
        self.entries = entries
        self.offset = end.directoryOffset
        self.file = file.identity
    }

    /// The local header offset following `entry`'s, or the directory's; nil if `entry` is not one
    /// of this directory's.
    func nextHeaderOffset(after entry: ZipEntry) -> UInt64? {
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
        return low + 1 < layoutOrder.count ? entries[layoutOrder[low + 1]].localHeaderOffset : offset
    }

    /// Whether the number of records found agrees with the end record's count. Some writers wrap
    /// the 16-bit count past 65535 entries instead of writing ZIP64 records, or leave it at 0xFFFF.
    private static func countMatches(_ found: UInt64, _ end: ZipEndOfCentralDirectory) -> Bool {
        if found == end.entryCount { return true }
        guard !end.isZip64 else { return false }
        return found & 0xFFFF == end.entryCount
            || (end.entryCount == UInt64(ZipFormat.zip64Sentinel16) && found > end.entryCount)
    }

    /// Checks that no two entries can share bytes and that none reaches into the central directory,
    /// using the least each entry must occupy (its fixed local header plus its compressed data);
    /// `ZipArchive` later checks the exact extent before reading an entry.
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
                UInt64(ZipLocalHeader.size) &+ min(entry.compressedSize, file.size))
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
}
