import CZlib

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
final class ZipWriter {
    /// The finished archive's path.
    let path: String
    /// Where the archive is written until `finish()` renames it to `path`.
    let partialPath: String
    private let timestamp: ZipTimestamp
    private let forceZip64: Bool
    private let file: FileSink
    private let stream: UnsafeMutablePointer<z_stream>

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
    private var crc: uLong = 0
    private var uncompressedSize: UInt64 = 0

    private var finished = false
    private var abandoned = false
    private var failure: GeneratorError?

    /// Bytes of the archive so far, including buffered ones; after `finish()`, its size.
    var size: UInt64 { file.offset + UInt64(buffered) }

    /// APPNOTE 4.4.3: 2.0 for deflate, 4.5 for ZIP64 extensions.
    private static let versionDeflate: UInt16 = 20
    private static let versionZip64: UInt16 = 45
    /// Bit 11: names are UTF-8.
    private static let flagUTF8: UInt16 = 1 << 11
    private static let methodDeflate: UInt16 = 8
    /// "Made by" host 3 (Unix), so readers honour the mode in the external attributes.
    private static let hostUnix: UInt16 = 3 << 8
    /// A regular file, owner read/write only: unzip restores this mode, keeping the data private.
    private static let externalAttributes: UInt32 = 0o100600 << 16
    private static let max32: UInt64 = 0xFFFF_FFFF
    private static let max16: UInt64 = 0xFFFF
    /// Room reserved in every local header for a ZIP64 extra field (id, length, two sizes). An
    /// entry's size is unknown until it ends, and the header cannot grow once data follows it;
    /// entries that turn out small get the same room as a padding field instead.
    private static let reservedExtraSize = 20
    /// Extra-field id of that padding: the one Android's zipalign uses for padding, which every
    /// reader skips as an unknown field.
    private static let paddingFieldID: UInt16 = 0xD935

    /// Creates `path.partial` (0600), replacing any stale one.
    ///
    /// - Parameters:
    ///   - modified: stamped on every entry.
    ///   - level: zlib compression level, 0-9 (6 is zlib's and python's default).
    ///   - forceZip64: write ZIP64 records for every entry and the end of the archive even when the
    ///     values fit 32 bits, so tests can check readers without writing 4 GiB.
    init(path: String, modified: ZipTimestamp, level: Int32 = 6, forceZip64: Bool = false) throws {
        self.path = path
        self.partialPath = path + ".partial"
        self.timestamp = modified
        self.forceZip64 = forceZip64
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // windowBits -15: raw deflate, which is what a zip entry holds (no zlib header or trailer).
        let status = deflateInit2_(
            stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw GeneratorError("cannot start zlib's deflate for \(path) (zlib error \(status))")
        }
        do {
            file = try FileSink(path: partialPath, fresh: true)
        } catch {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw error
        }
        output = .allocate(byteCount: 1 << 18, alignment: 16)
    }

    deinit {
        if !finished { abandon() }
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    // MARK: entries

    /// Starts an entry; its bytes follow with `write(_:)`.
    func beginEntry(_ name: String) throws {
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
        guard deflateReset(stream) == Z_OK else {
            throw fail("zlib could not reset for '\(name)' in \(path)")
        }
        entryName = rawName
        headerOffset = size
        crc = CZlib.crc32(0, nil, 0)
        uncompressedSize = 0
        // A placeholder: CRC and sizes are zero until `endEntry()` patches the header.
        let header = localHeader(name: rawName, crc: 0, compressed: 0, uncompressed: 0, zip64: false)
        try append(header)
        dataOffset = size
    }

    /// Compresses the next bytes of the open entry.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try checkUsable()
        guard entryName != nil else { throw fail("cannot write to \(path): no entry is open") }
        guard var base = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return }
        var remaining = bytes.count
        // zlib counts in 32 bits: feed it at most 1 GiB at a time.
        while remaining > 0 {
            let count = min(remaining, 1 << 30)
            crc = CZlib.crc32(crc, base, uInt(count))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
            stream.pointee.avail_in = uInt(count)
            try deflateBuffered(flush: Z_NO_FLUSH)
            uncompressedSize += UInt64(count)
            base += count
            remaining -= count
        }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Ends the open entry: flushes deflate, patches the local header, records the directory entry.
    func endEntry() throws {
        try checkUsable()
        guard let name = entryName else { throw fail("cannot end an entry in \(path): none is open") }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        try deflateBuffered(flush: Z_FINISH)
        let compressedSize = size - dataOffset
        let crc32 = UInt32(truncatingIfNeeded: crc)
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
    func finish() throws -> UInt64 {
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
            // ZIP64 end of central directory record (APPNOTE 4.3.14), without extensible data.
            end.le32(0x0606_4b50)
            end.le64(44)  // the record's size, not counting these first 12 bytes
            end.le16(Self.hostUnix | Self.versionZip64)
            end.le16(Self.versionZip64)
            end.le32(0)  // this disk
            end.le32(0)  // the disk where the central directory starts
            end.le64(entryCount)  // entries on this disk
            end.le64(entryCount)  // entries in all
            end.le64(directorySize)
            end.le64(directoryOffset)
            // ZIP64 end of central directory locator (APPNOTE 4.3.15).
            end.le32(0x0706_4b50)
            end.le32(0)  // the disk holding the ZIP64 end record
            end.le64(recordOffset)
            end.le32(1)  // disks in all
        }
        // End of central directory record (APPNOTE 4.3.16); sentinels defer to the ZIP64 record.
        let count16 = UInt16(zip64End ? Self.max16 : entryCount)
        end.le32(0x0605_4b50)
        end.le16(0)  // this disk
        end.le16(0)  // the disk where the central directory starts
        end.le16(count16)
        end.le16(count16)
        end.le32(UInt32(zip64End ? Self.max32 : directorySize))
        end.le32(UInt32(zip64End ? Self.max32 : directoryOffset))
        end.le16(0)  // comment length
        try append(end)
        try flushOutput()
        do {
            try file.sync()
            try file.close()
        } catch let error as GeneratorError {
            throw fail(error.description)
        }
        guard rename(partialPath, path) == 0 else {
            throw fail("cannot move \(partialPath) to \(path): \(String(cString: strerror(errno)))")
        }
        finished = true
        return size
    }

    // MARK: records

    /// The local file header (APPNOTE 4.3.7), always with `reservedExtraSize` bytes of extra field:
    /// the ZIP64 sizes when `zip64`, padding otherwise.
    private func localHeader(
        name: [UInt8], crc: UInt32, compressed: UInt64, uncompressed: UInt64, zip64: Bool
    ) -> [UInt8] {
        var header: [UInt8] = []
        header.reserveCapacity(30 + name.count + Self.reservedExtraSize)
        header.le32(0x0403_4b50)
        header.le16(zip64 ? Self.versionZip64 : Self.versionDeflate)
        header.le16(Self.flagUTF8)
        header.le16(Self.methodDeflate)
        header.le16(timestamp.dosTime)
        header.le16(timestamp.dosDate)
        header.le32(crc)
        header.le32(zip64 ? UInt32(Self.max32) : UInt32(compressed))
        header.le32(zip64 ? UInt32(Self.max32) : UInt32(uncompressed))
        header.le16(UInt16(name.count))
        header.le16(UInt16(Self.reservedExtraSize))
        header.append(contentsOf: name)
        if zip64 {
            // APPNOTE 4.5.3: in a local header the ZIP64 field holds both sizes, uncompressed first.
            header.le16(0x0001)
            header.le16(16)
            header.le64(uncompressed)
            header.le64(compressed)
        } else {
            header.le16(Self.paddingFieldID)
            header.le16(UInt16(Self.reservedExtraSize - 4))
            header.le16(1)  // zipalign's "alignment" value: 1, no alignment asked for
            header.append(contentsOf: repeatElement(0, count: Self.reservedExtraSize - 6))
        }
        return header
    }

    /// A central directory record (APPNOTE 4.3.12). Its ZIP64 extra field holds, in this order,
    /// only the values whose classic fields hold the sentinel.
    private func appendDirectoryRecord(
        name: [UInt8], crc: UInt32, compressed: UInt64, zip64Sizes: Bool, zip64Offset: Bool
    ) {
        var extra: [UInt8] = []
        if zip64Sizes || zip64Offset {
            extra.le16(0x0001)
            extra.le16(UInt16((zip64Sizes ? 16 : 0) + (zip64Offset ? 8 : 0)))
            if zip64Sizes {
                extra.le64(uncompressedSize)
                extra.le64(compressed)
            }
            if zip64Offset { extra.le64(headerOffset) }
        }
        let version = extra.isEmpty ? Self.versionDeflate : Self.versionZip64
        directory.le32(0x0201_4b50)
        directory.le16(Self.hostUnix | version)
        directory.le16(version)
        directory.le16(Self.flagUTF8)
        directory.le16(Self.methodDeflate)
        directory.le16(timestamp.dosTime)
        directory.le16(timestamp.dosDate)
        directory.le32(crc)
        directory.le32(zip64Sizes ? UInt32(Self.max32) : UInt32(compressed))
        directory.le32(zip64Sizes ? UInt32(Self.max32) : UInt32(uncompressedSize))
        directory.le16(UInt16(name.count))
        directory.le16(UInt16(extra.count))
        directory.le16(0)  // comment length
        directory.le16(0)  // disk number start
        directory.le16(0)  // internal attributes
        directory.le32(Self.externalAttributes)
        directory.le32(zip64Offset ? UInt32(Self.max32) : UInt32(headerOffset))
        directory.append(contentsOf: name)
        directory.append(contentsOf: extra)
    }

    // MARK: output

    /// Runs deflate over the pending input into `output`, writing the buffer out whenever it fills.
    private func deflateBuffered(flush: Int32) throws {
        while true {
            if buffered == output.count { try flushOutput() }
            let room = output.count - buffered
            stream.pointee.next_out = (output.baseAddress! + buffered).assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(room)
            let status = deflate(stream, flush)
            buffered += room - Int(stream.pointee.avail_out)
            stream.pointee.next_out = nil
            stream.pointee.avail_out = 0
            switch status {
            case Z_STREAM_END:
                return
            case Z_OK, Z_BUF_ERROR:
                // Done once the input is used up and deflate had room to spare; Z_FINISH must
                // go on to Z_STREAM_END.
                if flush != Z_FINISH && stream.pointee.avail_in == 0 && buffered < output.count { return }
                if status == Z_BUF_ERROR && buffered < output.count {
                    throw fail("zlib's deflate stalled on '\(currentName)' in \(path)")
                }
            default:
                throw fail("zlib's deflate failed (error \(status)) on '\(currentName)' in \(path)")
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
            } catch let error as GeneratorError {
                throw fail(error.description)
            }
        }
    }

    private func flushOutput() throws {
        guard buffered > 0 else { return }
        do {
            try file.write(UnsafeRawBufferPointer(rebasing: output[0..<buffered]))
        } catch let error as GeneratorError {
            throw fail(error.description)
        }
        buffered = 0
    }

    // MARK: failure

    private var currentName: String { entryName.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    private func checkUsable() throws {
        if let failure { throw failure }
        if finished { throw GeneratorError("\(path) is already finished; nothing more can be added") }
    }

    /// Records the first failure, removes the partial file, and returns the error to throw.
    private func fail(_ message: String) -> GeneratorError {
        let error = failure ?? GeneratorError(message)
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

extension Array where Element == UInt8 {
    /// Little-endian fields, as every ZIP record stores them.
    fileprivate mutating func le16(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    fileprivate mutating func le32(_ value: UInt32) {
        le16(UInt16(truncatingIfNeeded: value))
        le16(UInt16(truncatingIfNeeded: value >> 16))
    }

    fileprivate mutating func le64(_ value: UInt64) {
        le32(UInt32(truncatingIfNeeded: value))
        le32(UInt32(truncatingIfNeeded: value >> 32))
    }
}
