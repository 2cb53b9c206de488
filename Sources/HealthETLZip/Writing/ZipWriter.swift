#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a ZIP archive (PKWARE APPNOTE 6.3) entry by entry, deflating each entry's bytes as they
/// arrive, so an export.xml of any size passes through a fixed amount of memory.
///
/// Usage: `beginEntry(name)`, `write(bytes)` any number of times, `endEntry()`, more entries, then
/// `finish()`, which writes the central directory. Only the central directory grows with the
/// archive (about 100 bytes per entry); entry data never stays in memory.
///
/// The archive is written to `PATH.partial` (mode 0600) and renamed to `PATH` only once `finish()`
/// has written and synced all of it. Any failure, or dropping the writer before `finish()`,
/// removes the partial file, so `PATH` is either the complete archive or untouched.
///
/// Output is a function of the calls alone: the timestamp is passed in, no clock, user or host
/// is recorded, and zlib's deflate is deterministic for a given level (across zlib releases too,
/// though not across reimplementations such as zlib-ng's compat mode). Each entry's sizes and
/// CRC-32 are patched into its local header once known (the file is seekable), so no data
/// descriptors are needed. ZIP64 records appear only where a value does not fit its classic
/// field (or when `forceZip64` asks for them, to test readers on small archives).
///
/// Not `Sendable`: it owns a file descriptor and a zlib stream; use it from one thread.
public final class ZipWriter {
    /// The finished archive's path.
    public let path: String
    /// Where the archive is written until `finish()` renames it to `path`.
    public let partialPath: String
    private let timestamp: ZipTimestamp
    private let forceZip64: Bool
    private let file: PrivateFile
    private let deflater: ZipDeflater

    /// Compressed bytes on their way to the file: one write(2) per buffer-full.
    private let output: UnsafeMutableRawBufferPointer
    private var buffered = 0

    /// The central directory so far, written out by `finish()`.
    private var directory: [UInt8] = []
    private var entryCount: UInt64 = 0
    private var names: Set<String> = []

    // The entry being written.
    private var entryName: [UInt8]?
    private var headerOffset: UInt64 = 0
    private var dataOffset: UInt64 = 0
    private var crc: UInt32 = 0
    private var uncompressedSize: UInt64 = 0

    private var finished = false
    private var abandoned = false
    private var failure: ZipWriteError?

    /// Bytes of the archive so far, including buffered ones; after `finish()`, its size.
    public var size: UInt64 { file.offset + UInt64(buffered) }

    /// Names are UTF-8, and said to be.
    private static let flags = ZipFormat.flagUTF8
    /// A regular file, owner read/write only: unzip restores this mode, keeping the data private.
    private static let externalAttributes: UInt32 = (ZipFormat.unixRegularFile | 0o600) << 16
    private static let max32 = UInt64(ZipFormat.zip64Sentinel32)
    private static let max16 = UInt64(ZipFormat.zip64Sentinel16)
    /// Room reserved in every local header for a ZIP64 extra field (id, length, two sizes). An
    /// entry's size is unknown until it ends, and the header cannot grow once data follows it;
    /// entries that turn out small get the same room as a padding field instead.
    private static let reservedExtraSize = 20

    /// Creates `path.partial` (0600), replacing any stale one.
    ///
    /// - Parameters:
    ///   - modified: stamped on every entry.
    ///   - level: zlib compression level, 0-9 (6 is zlib's and python's default).
    ///   - forceZip64: write ZIP64 records for every entry and the end of the archive even when the
    ///     values fit 32 bits, so tests can check readers without writing 4 GiB.
    public init(path: String, modified: ZipTimestamp, level: Int32 = 6, forceZip64: Bool = false) throws {
        self.path = path
        self.partialPath = path + ".partial"
        self.timestamp = modified
        self.forceZip64 = forceZip64
        do {
            deflater = try ZipDeflater(level: level)
        } catch {
            throw ZipWriteError("cannot start zlib's deflate for \(path) (\(error))")
        }
        file = try PrivateFile(path: partialPath, fresh: true)
        output = .allocate(byteCount: 1 << 18, alignment: 16)
    }

    deinit {
        if !finished { abandon() }
        output.deallocate()
    }

    // MARK: entries

    /// Starts an entry; its bytes follow with `write(_:)`.
    public func beginEntry(_ name: String) throws {
        try checkUsable()
        if let open = entryName {
            throw fail(
                "cannot begin '\(name)' in \(path): '\(String(decoding: open, as: UTF8.self))' is still open")
        }
        let rawName = Array(name.utf8)
        guard !rawName.isEmpty, rawName.count <= Int(Self.max16), !rawName.contains(0) else {
            throw fail(
                "cannot add an entry named '\(name)' to \(path): a name must be 1-65535 bytes without NUL")
        }
        guard names.insert(name).inserted else {
            throw fail("cannot add '\(name)' to \(path) twice")
        }
        guard deflater.reset() else {
            throw fail("zlib could not reset for '\(name)' in \(path)")
        }
        entryName = rawName
        headerOffset = size
        crc = 0
        uncompressedSize = 0
        // A placeholder: CRC and sizes are zero until `endEntry()` patches the header.
        let header = localHeader(name: rawName, crc: 0, compressed: 0, uncompressed: 0, zip64: false)
        try append(header)
        dataOffset = size
    }

    /// Compresses the next bytes of the open entry.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        try checkUsable()
        guard entryName != nil else { throw fail("cannot write to \(path): no entry is open") }
        var offset = 0
        // zlib counts in 32 bits: feed it at most 1 GiB at a time.
        while offset < bytes.count {
            let piece = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(bytes.count, offset + (1 << 30))])
            crc = ZipCRC32.update(crc, with: piece)
            deflater.setInput(piece)
            try deflateBuffered(finishing: false)
            uncompressedSize += UInt64(piece.count)
            offset += piece.count
        }
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Ends the open entry: flushes deflate, patches the local header, records the directory entry.
    public func endEntry() throws {
        try checkUsable()
        guard let name = entryName else { throw fail("cannot end an entry in \(path): none is open") }
        deflater.setInput(UnsafeRawBufferPointer(start: nil, count: 0))
        try deflateBuffered(finishing: true)
        let compressedSize = size - dataOffset
        let crc32 = crc
        let zip64Sizes = forceZip64 || uncompressedSize >= Self.max32 || compressedSize >= Self.max32
        let header = localHeader(
            name: name, crc: crc32, compressed: compressedSize, uncompressed: uncompressedSize,
            zip64: zip64Sizes)
        try patch(header, at: headerOffset)
        appendDirectoryRecord(
            name: name, crc: crc32, compressed: compressedSize, zip64Sizes: zip64Sizes,
            zip64Offset: forceZip64 || headerOffset >= Self.max32)
        entryCount += 1
        entryName = nil
    }

    /// Ends any open entry, writes the central directory and the end records, syncs the file and
    /// renames it into place. - Returns: the archive's size in bytes.
    @discardableResult
    public func finish() throws -> UInt64 {
        try checkUsable()
        if entryName != nil { try endEntry() }
        let directoryOffset = size
        try append(directory)
        let directorySize = size - directoryOffset
        // 0xFFFF and 0xFFFFFFFF in the classic end record mean "see the ZIP64 record", so a
        // value equal to the sentinel needs the ZIP64 record as much as a larger one.
        let zip64End =
            forceZip64 || entryCount >= Self.max16 || directoryOffset >= Self.max32
            || directorySize >= Self.max32
        var end: [UInt8] = []
        if zip64End {
            let recordOffset = size
            Zip64EndRecord(
                versionMadeBy: ZipFormat.hostUnix | ZipFormat.versionZip64,
                versionNeeded: ZipFormat.versionZip64,
                entriesOnDisk: entryCount, entryCount: entryCount, directorySize: directorySize,
                directoryOffset: directoryOffset
            ).append(to: &end)
            Zip64EndLocator(recordOffset: recordOffset).append(to: &end)
        }
        // Sentinels defer to the ZIP64 record.
        let count16 = UInt16(zip64End ? Self.max16 : entryCount)
        ZipEndRecord(
            entriesOnDisk: count16, entryCount: count16,
            directorySize: UInt32(zip64End ? Self.max32 : directorySize),
            directoryOffset: UInt32(zip64End ? Self.max32 : directoryOffset), commentLength: 0
        ).append(to: &end)
        try append(end)
        try flushOutput()
        do {
            try file.sync()
            try file.close()
        } catch let error as ZipWriteError {
            throw fail(error.description)
        }
        guard rename(partialPath, path) == 0 else {
            throw fail("cannot move \(partialPath) to \(path): \(String(cString: strerror(errno)))")
        }
        finished = true
        return size
    }

    // MARK: records

    /// The local file header, always with `reservedExtraSize` bytes of extra field: the ZIP64
    /// sizes when `zip64`, padding otherwise.
    private func localHeader(
        name: [UInt8], crc: UInt32, compressed: UInt64, uncompressed: UInt64, zip64: Bool
    ) -> [UInt8] {
        var header: [UInt8] = []
        header.reserveCapacity(ZipLocalHeader.size + name.count + Self.reservedExtraSize)
        ZipLocalHeader(
            entryFields(
                versionNeeded: zip64 ? ZipFormat.versionZip64 : ZipFormat.versionDeflate, crc: crc,
                compressed: zip64 ? UInt32(Self.max32) : UInt32(compressed),
                uncompressed: zip64 ? UInt32(Self.max32) : UInt32(uncompressed), name: name,
                extraLength: Self.reservedExtraSize)
        ).append(to: &header)
        header.append(contentsOf: name)
        if zip64 {
            // In a local header the ZIP64 field holds both sizes.
            Zip64ExtraField(uncompressedSize: uncompressed, compressedSize: compressed).append(to: &header)
        } else {
            // zipalign's "alignment" value: 1, no alignment asked for.
            var padding = [UInt8](repeating: 0, count: Self.reservedExtraSize - 4)
            padding[0] = 1
            ZipExtraField(id: ZipFormat.paddingExtraFieldID, data: padding).append(to: &header)
        }
        return header
    }

    /// A central directory record. Its ZIP64 extra field holds only the values whose classic
    /// fields hold the sentinel.
    private func appendDirectoryRecord(
        name: [UInt8], crc: UInt32, compressed: UInt64, zip64Sizes: Bool, zip64Offset: Bool
    ) {
        let zip64 = Zip64ExtraField(
            uncompressedSize: zip64Sizes ? uncompressedSize : nil,
            compressedSize: zip64Sizes ? compressed : nil,
            localHeaderOffset: zip64Offset ? headerOffset : nil)
        var extra: [UInt8] = []
        if !zip64.isEmpty { zip64.append(to: &extra) }
        let version = extra.isEmpty ? ZipFormat.versionDeflate : ZipFormat.versionZip64
        ZipCentralHeader(
            versionMadeBy: ZipFormat.hostUnix | version,
            fields: entryFields(
                versionNeeded: version, crc: crc,
                compressed: zip64Sizes ? UInt32(Self.max32) : UInt32(compressed),
                uncompressed: zip64Sizes ? UInt32(Self.max32) : UInt32(uncompressedSize), name: name,
                extraLength: extra.count),
            externalAttributes: Self.externalAttributes,
            localHeaderOffset: zip64Offset ? UInt32(Self.max32) : UInt32(headerOffset)
        ).append(to: &directory)
        directory.append(contentsOf: name)
        directory.append(contentsOf: extra)
    }

    /// What both headers say about the entry; the sizes are their 32-bit fields.
    private func entryFields(
        versionNeeded: UInt16, crc: UInt32, compressed: UInt32, uncompressed: UInt32, name: [UInt8],
        extraLength: Int
    ) -> ZipEntryFields {
        ZipEntryFields(
            versionNeeded: versionNeeded, flags: Self.flags, method: ZipFormat.methodDeflated,
            modified: timestamp,
            crc32: crc, compressedSize: compressed, uncompressedSize: uncompressed,
            nameLength: UInt16(name.count),
            extraLength: UInt16(extraLength))
    }

    // MARK: output

    /// Runs deflate over the pending input into `output`, writing the buffer out whenever it fills.
    private func deflateBuffered(finishing: Bool) throws {
        while true {
            if buffered == output.count { try flushOutput() }
            let (status, written) = deflater.deflate(
                into: UnsafeMutableRawBufferPointer(rebasing: output[buffered...]), finishing: finishing)
            buffered += written
            switch status {
            case .streamEnd:
                return
            case .progress, .stalled:
                // Done once the input is used up and deflate had room to spare; finishing must
                // go on to the stream's end.
                if !finishing && deflater.availableInput == 0 && buffered < output.count { return }
                if status == .stalled && buffered < output.count {
                    throw fail("zlib's deflate stalled on '\(currentName)' in \(path)")
                }
            case .failed(let code):
                throw fail("zlib's deflate failed (error \(code)) on '\(currentName)' in \(path)")
            }
        }
    }

    /// Appends `bytes` through the buffer, keeping a header contiguous so `patch` can find it.
    private func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { source in
            var offset = 0
            if buffered + source.count > output.count { try flushOutput() }
            while offset < source.count {
                if buffered == output.count { try flushOutput() }
                let count = min(source.count - offset, output.count - buffered)
                (output.baseAddress! + buffered).copyMemory(
                    from: source.baseAddress! + offset, byteCount: count)
                buffered += count
                offset += count
            }
        }
    }

    /// Rewrites bytes already written: in the buffer if they are still there, else in the file.
    private func patch(_ bytes: [UInt8], at position: UInt64) throws {
        let bufferStart = file.offset
        if position >= bufferStart {
            let start = Int(position - bufferStart)
            precondition(start + bytes.count <= buffered, "a patch must cover bytes already written")
            bytes.withUnsafeBytes {
                (output.baseAddress! + start).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
            }
        } else {
            try flushOutput()
            do {
                try bytes.withUnsafeBytes { try file.write($0, at: position) }
            } catch let error as ZipWriteError {
                throw fail(error.description)
            }
        }
    }

    private func flushOutput() throws {
        guard buffered > 0 else { return }
        do {
            try file.write(UnsafeRawBufferPointer(rebasing: output[0..<buffered]))
        } catch let error as ZipWriteError {
            throw fail(error.description)
        }
        buffered = 0
    }

    // MARK: failure

    private var currentName: String { entryName.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    private func checkUsable() throws {
        if let failure { throw failure }
        if finished { throw ZipWriteError("\(path) is already finished; nothing more can be added") }
    }

    /// Records the first failure, removes the partial file, and returns the error to throw.
    private func fail(_ message: String) -> ZipWriteError {
        let error = failure ?? ZipWriteError(message)
        failure = error
        abandon()
        return error
    }

    /// Drops the partial file: a half-written archive must never be mistaken for an export.
    private func abandon() {
        guard !abandoned else { return }
        abandoned = true
        try? file.close()
        _ = unlink(partialPath)
    }
}
