/// A ZIP archive read in place: its directory at open, each entry's data streamed on demand.
///
/// Opening reads only the end of the file and the central directory. Nothing is ever extracted or
/// written anywhere; names are reported, never turned into paths. Every size, offset and ratio
/// an archive declares is treated as hostile until checked.
///
/// Not `Sendable`: it owns a file descriptor and is meant to be confined to one thread.
public final class ZipArchive {
    public let path: String
    /// What the central directory says, checked: read once, when the archive was first opened.
    public let directory: ZipDirectory
    public let fileSize: UInt64

    private let limits: ZipLimits
    private let file: ZipFileDescriptor

    /// The entries in central directory order.
    public var entries: [ZipEntry] { directory.entries }

    /// Opens the archive and reads its directory.
    ///
    /// - Throws: `ZipError`: `.io` if the file cannot be read, `.notAZip`, `.truncated` or
    ///   `.corruptDirectory` if its directory is missing or inconsistent, `.tooManyEntries`, and
    ///   `.overlappingEntries` if two entries claim the same bytes.
    public convenience init(path: String, limits: ZipLimits = ZipLimits()) throws {
        let file = try ZipFileDescriptor(path: path)
        self.init(file: file, directory: try ZipDirectory(reading: file, limits: limits), limits: limits)
    }

    /// Opens the archive `directory` was read from, without reading its directory again.
    ///
    /// - Returns: nil when the file at `path` is no longer the file, as it was, that `directory`
    ///   came from, or when `directory` holds more entries than `limits` accept: open it afresh.
    /// - Throws: `ZipError.Kind.io` if the file cannot be opened.
    public convenience init?(path: String, directory: ZipDirectory, limits: ZipLimits = ZipLimits()) throws {
        let file = try ZipFileDescriptor(path: path)
        guard file.identity == directory.file, directory.entries.count <= limits.maxEntries else {
            return nil
        }
        self.init(file: file, directory: directory, limits: limits)
    }

    private init(file: ZipFileDescriptor, directory: ZipDirectory, limits: ZipLimits) {
        self.path = file.path
        self.directory = directory
        self.fileSize = file.size
        self.limits = limits
        self.file = file
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

    /// The exact bytes holding the entry's compressed data, after checking its local header and
    /// everything that can be rejected before reading data.
    private func dataRange(of entry: ZipEntry) throws -> Range<UInt64> {
        guard let next = directory.nextHeaderOffset(after: entry) else {
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

        let headerSize = ZipLocalHeader.size
        var reader = ZipByteReader(try file.bytes(at: entry.localHeaderOffset, count: headerSize))
        guard reader.remaining == headerSize else {
            throw ZipError.entry(
                .truncated, entry, in: path,
                "its local header at byte \(entry.localHeaderOffset) is cut off by the end of the file "
                    + "(\(fileSize) bytes)")
        }
        guard reader.uint32() == ZipLocalHeader.signature,
            let local = ZipLocalHeader(fieldsFrom: &reader)?.fields
        else {
            throw ZipError.entry(
                .corruptData, entry, in: path,
                "the central directory points at byte \(entry.localHeaderOffset), but there is no local header there"
            )
        }
        if local.flags & ZipFormat.flagEncrypted != 0 {
            throw ZipError.entry(
                .encrypted, entry, in: path,
                "its local header (byte \(entry.localHeaderOffset)) marks it encrypted, and healthetl does not "
                    + "read encrypted archives",
                advice:
                    "Unzip it with its password and import the export folder, or \(ZipError.reexportClause).")
        }
        guard local.method == entry.method else {
            throw ZipError.entry(
                .corruptData, entry, in: path,
                "its local header (byte \(entry.localHeaderOffset)) says compression method \(local.method) but the "
                    + "central directory says \(entry.method)")
        }
        let dataStart =
            entry.localHeaderOffset + UInt64(headerSize + Int(local.nameLength) + Int(local.extraLength))
        let dataEnd = dataStart + entry.compressedSize  // cannot overflow: the layout check bounded both
        guard dataEnd <= fileSize else {
            throw ZipError.entry(
                .truncated, entry, in: path,
                "its data needs bytes \(dataStart)..<\(dataEnd) but the file ends at byte \(fileSize)")
        }
        guard dataEnd <= next else {
            let neighbour =
                next == directory.offset ? "the central directory" : "the next entry's local header"
            throw ZipError.entry(
                next == directory.offset ? .corruptDirectory : .overlappingEntries, entry, in: path,
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
}
