/// Reads a ZIP archive front to back as its bytes arrive, never seeking and never writing
/// anything anywhere: for an archive that is itself the data of another archive's entry, or any
/// archive that comes as a stream.
///
/// It walks the local headers in order and stops at the central directory, which it does not
/// need. Each entry's data is handed on as it is inflated, then checked against its CRC-32 and
/// sizes, from its local header or from the data descriptor that follows it. The `ZipLimits`
/// apply as they do to `ZipArchive`: the entry count, each entry's size and its compression
/// ratio. Memory stays bounded whatever the archive: one output chunk, the inflater's state and
/// at most one local header (under 128 KiB) at a time.
///
/// Readers nest: a `.data` event's bytes can be fed to another `ZipStreamReader`, to a
/// `GzipStream` or to a file decoder, each with its own budgets. How deep to go is the caller's
/// choice: each level holds about 150 KiB (the inflater's 87 KB of tables and window, one output
/// chunk) and takes about 1 KiB of stack while its bytes pass through (under 5 KiB in a debug
/// build).
///
/// What it cannot read: an entry stored uncompressed whose size only its data descriptor gives
/// (nothing says where its data ends; `ZipError.Kind.notStreamable`), encrypted entries, methods
/// other than stored and deflate. Names are reported, never turned into paths.
///
/// Not `Sendable`: it owns the inflater's state and is meant to be confined to one thread.
public final class ZipStreamReader {
    /// What to do about a damaged archive, unless the caller knows better.
    public static let defaultAdvice = "Export or download the archive again and import the new copy."

    /// How messages name the archive: its path, or for an archive inside another, a path such as
    /// `export.zip/DI_CONNECT/part1.zip`.
    public let name: String
    /// Bytes of the archive fed so far.
    public private(set) var bytesConsumed: UInt64 = 0
    /// Whether the entries are over: the central directory (or an end record) has begun, and
    /// the bytes that follow, however many, are passed over.
    public var hasReachedEnd: Bool {
        if case .end = state { return true }
        return false
    }

    private let limits: ZipLimits
    private let advice: String
    private let chunkSize: Int

    private enum State {
        /// Between entries: gathering the next record's signature, or a local header, in `pending`.
        case header
        /// In a stored entry's data, with this many bytes to go.
        case stored(remaining: UInt64)
        /// In a deflated entry's data, until the deflate stream ends.
        case deflated
        /// After a deflate stream that ended before its declared compressed size: the bytes left
        /// up to that size are passed over, as `ZipArchive` does.
        case padding(remaining: UInt64)
        /// Gathering the data descriptor in `pending`.
        case descriptor
        /// The central directory or an end record has begun.
        case end
    }

    /// What the current entry's data has come to so far.
    private struct Progress {
        /// Archive bytes its data took, padding included.
        var consumed: UInt64 = 0
        /// Uncompressed bytes handed on, and their CRC-32.
        var produced: UInt64 = 0
        var crc: UInt32 = 0
    }

    /// Why inflating an entry stopped short.
    private enum InflateFailure {
        case longerThanDeclared
        case pastSizeLimit
        case pastRatioLimit(produced: UInt64)
        case endsEarly
        case damaged(String)
    }

    /// The bytes of one `feed` not yet taken, and where they sit in the archive.
    private struct Input {
        var bytes: UnsafeRawBufferPointer
        var offset: UInt64

        var count: Int { bytes.count }

        /// The first `count` bytes, left in place.
        func prefix(_ count: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: bytes[0..<count])
        }

        /// The first `count` bytes, taken.
        mutating func take(_ count: Int) -> UnsafeRawBufferPointer {
            let taken = prefix(count)
            bytes = UnsafeRawBufferPointer(rebasing: bytes[count...])
            offset += UInt64(count)
            return taken
        }
    }

    private typealias Handler = (ZipStreamEvent) throws -> Void

    private var state = State.header
    /// The entry being read, nil between entries.
    private var entry: ZipStreamEntry?
    /// Whether its local header has a ZIP64 extra field, so its descriptor's sizes are 64-bit.
    private var entryHasZip64Field = false
    private var progress = Progress()
    private var entryCount = 0
    /// A record that arrived in pieces, gathered whole; at most a local header.
    private var pending: [UInt8] = []
    /// Where `pending[0]` sits in the archive.
    private var pendingOffset: UInt64 = 0
    private var inflater: ZipInflater?
    private var output: UnsafeMutableRawBufferPointer?
    /// The first error thrown, thrown again by every later call: the reader cannot resume.
    private var failure: (any Error)?
    private var isFeeding = false

    /// - Parameters:
    ///   - name: how messages name the archive (see `name`).
    ///   - limits: the budgets each entry, and the entry count, must keep to.
    ///   - advice: the next step that error messages end with.
    ///   - chunkSize: the most inflated bytes handed on at once (stored data comes in pieces
    ///     of the bytes fed).
    public init(
        name: String, limits: ZipLimits = ZipLimits(), advice: String = ZipStreamReader.defaultAdvice,
        chunkSize: Int = 1 << 16
    ) {
        self.name = name
        self.limits = limits
        self.advice = advice
        // The inflater counts in 32 bits; a gigabyte per chunk is far past any useful size anyway.
        self.chunkSize = min(max(chunkSize, 1), 1 << 30)
    }

    deinit {
        output?.deallocate()
    }

    /// Reads the archive's next bytes, handing each entry's start, its uncompressed data in
    /// chunks and its verified end to `handler`, in order.
    ///
    /// Data handed on is unverified until its entry's `.entryEnded`: a consumer that keeps it
    /// must discard it when this throws.
    /// - Throws: `ZipError`, or what `handler` throws; after either, every call throws it again.
    public func feed(_ bytes: UnsafeRawBufferPointer, into handler: (ZipStreamEvent) throws -> Void) throws {
        precondition(!isFeeding, "ZipStreamReader.feed was called again from its own handler")
        if let failure { throw failure }
        isFeeding = true
        defer { isFeeding = false }
        let offset = bytesConsumed
        bytesConsumed += UInt64(bytes.count)
        do {
            try process(Input(bytes: bytes, offset: offset), handler)
        } catch {
            failure = error
            inflater?.clearInput()
            throw error
        }
    }

    /// The archive's bytes are over: checks that they reached the central directory.
    /// - Throws: `ZipError`: `.truncated` if an entry, a record or the archive itself was cut
    ///   off, `.notAZip` if there were no bytes at all; or the error an earlier call threw.
    public func finish() throws {
        if let failure { throw failure }
        let problem: ZipError
        switch state {
        case .end:
            return
        case .header where bytesConsumed == 0:
            problem = archiveError(.notAZip, "is empty, not a ZIP archive")
        case .header where pending.isEmpty:
            problem = archiveError(
                .truncated,
                "ends at byte \(bytesConsumed), after \(entryCount) entries, without its central directory: "
                    + "the archive is cut off")
        case .header:
            problem = archiveError(
                .truncated, "ends inside the record at byte \(pendingOffset): the archive is cut off")
        case .stored, .deflated, .padding:
            problem = entryError(
                .truncated, "the archive ends at byte \(bytesConsumed), inside its data: it is cut off")
        case .descriptor:
            problem = entryError(
                .truncated,
                "the archive ends at byte \(bytesConsumed), inside its data descriptor: it is cut off")
        }
        failure = problem
        throw problem
    }

    // MARK: - The state machine

    private func process(_ bytes: Input, _ handler: Handler) throws {
        var input = bytes
        while input.count > 0 {
            switch state {
            case .header:
                try readRecord(&input, handler)
            case .stored(let remaining):
                try readStored(&input, remaining: remaining, handler)
            case .deflated:
                try inflate(&input, handler)
            case .padding(let remaining):
                let skipped = input.take(Int(min(UInt64(input.count), remaining)))
                progress.consumed += UInt64(skipped.count)
                state = .padding(remaining: remaining - UInt64(skipped.count))
                if remaining == UInt64(skipped.count) { try endData(handler) }
            case .descriptor:
                try readDescriptor(&input, handler)
            case .end:
                _ = input.take(input.count)
            }
        }
    }

    /// Moves bytes from `input` to `pending` until it holds `count`. - Returns: whether it does.
    private func gather(_ count: Int, from input: inout Input) -> Bool {
        if pending.isEmpty { pendingOffset = input.offset }
        let missing = count - pending.count
        if missing > 0 { pending.append(contentsOf: input.take(min(missing, input.count))) }
        return pending.count >= count
    }

    /// Reads the record that follows the last entry: the next local header, or the central
    /// directory's start.
    private func readRecord(_ input: inout Input, _ handler: Handler) throws {
        guard gather(4, from: &input) else { return }
        var signature = ZipByteReader(pending)
        switch signature.uint32() {
        case ZipLocalHeader.signature:
            guard gather(ZipLocalHeader.size, from: &input) else { return }
            var reader = ZipByteReader(pending)
            // Within the bytes just gathered: it cannot fail.
            _ = reader.skip(4)
            let fields = ZipLocalHeader(fieldsFrom: &reader)!.fields
            guard gather(ZipLocalHeader.size + Int(fields.nameLength) + Int(fields.extraLength), from: &input)
            else { return }
            let header = pending
            pending.removeAll(keepingCapacity: true)
            try beginEntry(fields, header[ZipLocalHeader.size...], at: pendingOffset, handler)
        case ZipCentralHeader.signature, ZipEndRecord.signature, Zip64EndRecord.signature:
            pending.removeAll()
            state = .end
        default:
            let first = pending.map { hex($0) }.joined(separator: " ")
            pending.removeAll()
            if pendingOffset == 0 {
                throw archiveError(
                    .notAZip, "is not a ZIP archive: it starts with the bytes \(first), not a local header")
            }
            throw archiveError(
                .corruptData,
                "is damaged: after \(entryCount) entries, byte \(pendingOffset) holds \(first), neither a local "
                    + "header nor the central directory")
        }
    }

    // MARK: - Entries

    /// Checks the local header (its fixed fields, then `rest`: the name and the extra field)
    /// against the limits, and starts the entry.
    private func beginEntry(
        _ fields: ZipEntryFields, _ rest: ArraySlice<UInt8>, at offset: UInt64, _ handler: Handler
    ) throws {
        let nameEnd = rest.startIndex + Int(fields.nameLength)
        let rawName = rest[..<nameEnd]
        let extra = rest[nameEnd...]
        var unicodePathField: ArraySlice<UInt8>?
        var zip64Field: ArraySlice<UInt8>?
        for field in ZipExtraField.Fields(extra) {
            switch field.id {
            case ZipFormat.zip64ExtraFieldID where zip64Field == nil:
                zip64Field = field.data
            case ZipFormat.unicodePathExtraFieldID:
                unicodePathField = field.data
            default:
                continue
            }
        }
        let name = ZipNameDecoder.decode(rawName, flags: fields.flags, unicodePathField: unicodePathField)
        let at = "(local header at byte \(offset))"

        entryCount += 1
        guard entryCount <= limits.maxEntries else {
            throw ZipError(
                .tooManyEntries, entry: name,
                "'\(self.name)' holds more than \(limits.maxEntries) entries, the most healthetl accepts "
                    + "\(at). \(advice)")
        }
        let flags = fields.flags
        if flags & (ZipFormat.flagEncrypted | ZipFormat.flagStrongEncryption) != 0 {
            throw entryError(
                .encrypted, name, "it is encrypted, and healthetl does not read encrypted archives \(at)",
                advice: "Unzip it with its password, or export it again without one.")
        }
        let method = fields.method
        guard method == ZipFormat.methodStored || method == ZipFormat.methodDeflated else {
            throw entryError(
                .unsupportedMethod, name,
                "it is compressed with method \(method); healthetl reads only stored (0) and deflate (8) \(at)",
                advice: "Unzip it with a tool that knows the method, or export it again.")
        }

        // The sizes: in the classic fields, or in the ZIP64 field when those hold the sentinel.
        let hasDescriptor = flags & ZipFormat.flagDataDescriptor != 0
        let needsCompressed = fields.compressedSize == ZipFormat.zip64Sentinel32
        let needsUncompressed = fields.uncompressedSize == ZipFormat.zip64Sentinel32
        let zip64 = zip64Field.flatMap {
            Zip64ExtraField(
                $0, hasUncompressedSize: needsUncompressed, hasCompressedSize: needsCompressed,
                hasLocalHeaderOffset: false)
        }
        // A descriptor carries the sizes anyway, so a header that defers them is no loss.
        if (needsCompressed || needsUncompressed) && zip64 == nil && !hasDescriptor {
            throw entryError(
                .corruptData, name,
                "its local header declares ZIP64 sizes but its ZIP64 extra field is missing or too short \(at)")
        }
        var compressedSize = needsCompressed ? zip64?.compressedSize : UInt64(fields.compressedSize)
        var uncompressedSize = needsUncompressed ? zip64?.uncompressedSize : UInt64(fields.uncompressedSize)
        var crc32: UInt32? = fields.crc32
        if hasDescriptor {
            // A streaming writer leaves them zero (APPNOTE 4.4.4); some fill in the sizes anyway.
            if compressedSize == 0 { compressedSize = nil }
            if uncompressedSize == 0 { uncompressedSize = nil }
            crc32 = nil
        }
        let entry = ZipStreamEntry(
            name: name, method: method, localHeaderOffset: offset, compressedSize: compressedSize,
            uncompressedSize: uncompressedSize, crc32: crc32, hasDataDescriptor: hasDescriptor,
            modified: fields.modified)
        self.entry = entry
        entryHasZip64Field = zip64Field != nil || needsCompressed || needsUncompressed
        progress = Progress()
        try checkDeclaredSizes(of: entry, at: at)

        if method == ZipFormat.methodStored {
            guard let size = compressedSize ?? uncompressedSize else {
                throw entryError(
                    .notStreamable, name,
                    "it is stored uncompressed and only the data descriptor after its data gives its size, so "
                        + "its end cannot be found without the central directory \(at)",
                    advice: "Read the archive from a file rather than from within another archive, or have it "
                        + "written with deflate.")
            }
            try handler(.entryStarted(entry))
            state = .stored(remaining: size)
            if size == 0 { try endData(handler) }
        } else {
            if let inflater {
                inflater.reset()
            } else {
                inflater = ZipInflater()
            }
            try handler(.entryStarted(entry))
            state = .deflated
        }
    }

    /// Rejects entries whose declared sizes break the limits or contradict each other.
    private func checkDeclaredSizes(of entry: ZipStreamEntry, at: String) throws {
        if let size = entry.uncompressedSize ?? (entry.method == ZipFormat.methodStored ? entry.compressedSize : nil),
            size > limits.maxEntryBytes
        {
            throw entryError(
                .compressionBomb,
                "it declares \(size) uncompressed bytes, more than the limit of \(limits.maxEntryBytes) \(at)")
        }
        guard let compressed = entry.compressedSize, let uncompressed = entry.uncompressedSize else { return }
        if limits.exceedsRatio(produced: uncompressed, consumed: compressed) {
            throw entryError(
                .compressionBomb,
                "it declares \(uncompressed) bytes from \(compressed) compressed bytes, a ratio above the "
                    + "\(limits.maxCompressionRatio):1 limit that only zip bombs reach \(at)")
        }
        if entry.method == ZipFormat.methodStored && compressed != uncompressed {
            throw entryError(
                .sizeMismatch,
                "it is stored uncompressed, yet declares \(compressed) bytes stored and \(uncompressed) bytes of "
                    + "content \(at)")
        }
    }

    private func readStored(_ input: inout Input, remaining: UInt64, _ handler: Handler) throws {
        let chunk = input.take(Int(min(UInt64(input.count), remaining)))
        progress.consumed += UInt64(chunk.count)
        try deliver(chunk, handler)
        state = .stored(remaining: remaining - UInt64(chunk.count))
        if remaining == UInt64(chunk.count) { try endData(handler) }
    }

    /// Inflates what `input` holds of the entry's deflate stream, never past its declared sizes
    /// or the limits, and ends the entry's data when the stream ends.
    private func inflate(_ input: inout Input, _ handler: Handler) throws {
        guard let inflater else { preconditionFailure("no deflated entry is open") }
        let declaredCompressed = entry?.compressedSize
        let declaredSize = entry?.uncompressedSize
        let output = outputBuffer()
        var available = UInt64(input.count)
        if let declaredCompressed { available = min(available, declaredCompressed - progress.consumed) }
        let piece = input.prefix(Int(min(available, 1 << 30)))
        inflater.setInput(piece)
        defer { inflater.clearInput() }
        // One spare byte: the declared size is reached, but does the stream really end there?
        var probe: UInt8 = 0

        while true {
            var room = output.count
            if let declaredSize { room = Int(min(UInt64(room), declaredSize - progress.produced)) }
            let result: (status: ZipInflater.Status, written: Int)
            if room > 0 {
                result = inflater.inflate(into: UnsafeMutableRawBufferPointer(rebasing: output[0..<room]))
            } else {
                result = withUnsafeMutableBytes(of: &probe) { inflater.inflate(into: $0) }
                if result.written > 0 { throw failure(.longerThanDeclared) }
            }
            if result.written > 0 {
                let total = progress.produced + UInt64(result.written)
                if declaredSize == nil && total > limits.maxEntryBytes { throw failure(.pastSizeLimit) }
                if limits.exceedsRatio(produced: total, consumed: inflater.totalInput) {
                    throw failure(.pastRatioLimit(produced: total))
                }
                try deliver(UnsafeRawBufferPointer(rebasing: output[0..<result.written]), handler)
            }

            switch result.status {
            case .progress:
                continue
            case .needsInput:
                takeConsumed(piece, from: &input, by: inflater)
                if progress.consumed == declaredCompressed { throw failure(.endsEarly) }
                return
            case .streamEnd:
                takeConsumed(piece, from: &input, by: inflater)
                if let declaredCompressed, progress.consumed < declaredCompressed {
                    state = .padding(remaining: declaredCompressed - progress.consumed)
                } else {
                    try endData(handler)
                }
                return
            case .corrupt(let reason):
                throw failure(.damaged(reason))
            }
        }
    }

    /// Takes from `input` the bytes of `piece` the inflater consumed: the rest are the next record's.
    private func takeConsumed(_ piece: UnsafeRawBufferPointer, from input: inout Input, by inflater: ZipInflater) {
        let used = piece.count - inflater.availableInput
        _ = input.take(used)
        progress.consumed += UInt64(used)
    }

    /// The entry's data is over: checks what its local header declared, then reads its data
    /// descriptor if it has one, or ends the entry.
    private func endData(_ handler: Handler) throws {
        guard let entry else { preconditionFailure("no entry is open") }
        if let declared = entry.uncompressedSize, progress.produced != declared {
            throw entryError(
                .sizeMismatch,
                "its data ends after \(progress.produced) bytes, short of the \(declared) bytes it declares "
                    + located(entry))
        }
        if let declared = entry.crc32, progress.crc != declared {
            throw entryError(
                .crcMismatch,
                "its content has CRC-32 \(hex(progress.crc)) but its local header declares \(hex(declared)): the "
                    + "archive is damaged " + located(entry))
        }
        if entry.hasDataDescriptor {
            state = .descriptor
        } else {
            try endEntry(handler)
        }
    }

    /// Reads the data descriptor and checks it against the data: the CRC-32, the compressed
    /// bytes the data took and the uncompressed bytes it gave.
    ///
    /// Whether the descriptor has its signature, and whether its sizes are 32 or 64 bits, is
    /// settled by which layout agrees with the data; one that agrees with none is an error.
    private func readDescriptor(_ input: inout Input, _ handler: Handler) throws {
        guard gather(ZipDataDescriptor.Layout.largestSize, from: &input) else { return }
        let actual = ZipDataDescriptor(
            crc32: progress.crc, compressedSize: progress.consumed, uncompressedSize: progress.produced)
        let found = ZipDataDescriptor.Layout.candidates(zip64First: entryHasZip64Field).compactMap { layout in
            ZipDataDescriptor(pending[...], layout: layout).map { (layout: layout, descriptor: $0) }
        }
        guard let match = found.first(where: { $0.descriptor == actual }) else {
            let at = "(data descriptor at byte \(pendingOffset))"
            let said = found.first?.descriptor ?? actual
            if said.crc32 != actual.crc32 {
                throw entryError(
                    .crcMismatch,
                    "its content has CRC-32 \(hex(actual.crc32)) but its data descriptor says \(hex(said.crc32)): "
                        + "the archive is damaged \(at)")
            }
            throw entryError(
                .sizeMismatch,
                "its data took \(actual.compressedSize) bytes and inflated to \(actual.uncompressedSize), but its "
                    + "data descriptor says \(said.compressedSize) and \(said.uncompressedSize) \(at)")
        }
        let rest = Array(pending[match.layout.size...])
        let restOffset = pendingOffset + UInt64(match.layout.size)
        pending.removeAll(keepingCapacity: true)
        try endEntry(handler)
        // The bytes gathered past the descriptor begin the next record.
        try rest.withUnsafeBytes { try process(Input(bytes: $0, offset: restOffset), handler) }
    }

    private func endEntry(_ handler: Handler) throws {
        entry = nil
        state = .header
        try handler(.entryEnded)
    }

    private func deliver(_ chunk: UnsafeRawBufferPointer, _ handler: Handler) throws {
        guard !chunk.isEmpty else { return }
        progress.crc = ZipCRC32.update(progress.crc, with: chunk)
        progress.produced += UInt64(chunk.count)
        try handler(.data(chunk))
    }

    private func outputBuffer() -> UnsafeMutableRawBufferPointer {
        if let output { return output }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        output = buffer
        return buffer
    }

    // MARK: - Errors

    /// An error about the archive: "'name' problem. advice".
    private func archiveError(_ kind: ZipError.Kind, _ problem: String) -> ZipError {
        ZipError(kind, "'\(name)' \(problem). \(advice)")
    }

    /// An error about the current entry: "'archive', entry 'name': problem. advice".
    private func entryError(_ kind: ZipError.Kind, _ problem: String, advice: String? = nil) -> ZipError {
        entryError(kind, entry?.name ?? "", problem, advice: advice)
    }

    /// Why inflating the current entry stopped, said out of `inflate`'s hot loop.
    @inline(never)
    private func failure(_ failure: InflateFailure) -> ZipError {
        guard let entry, let inflater else { preconditionFailure("no deflated entry is open") }
        let at = located(entry)
        switch failure {
        case .longerThanDeclared:
            return entryError(
                .sizeMismatch,
                "its data inflates to more than the \(progress.produced) bytes it declares; reading stopped there \(at)"
            )
        case .pastSizeLimit:
            return entryError(
                .compressionBomb,
                "its data inflates to more than the limit of \(limits.maxEntryBytes) bytes; reading stopped there \(at)"
            )
        case .pastRatioLimit(let produced):
            return entryError(
                .compressionBomb,
                "\(inflater.totalInput) compressed bytes inflated to over \(produced) bytes, a ratio above the "
                    + "\(limits.maxCompressionRatio):1 limit that only zip bombs reach; reading stopped there \(at)")
        case .endsEarly:
            return entryError(
                .corruptData,
                "its \(progress.consumed) compressed bytes end before the deflate stream does \(at)")
        case .damaged(let reason):
            return entryError(
                .corruptData,
                "its compressed data is damaged (\(reason)) after \(inflater.totalInput) compressed bytes \(at)")
        }
    }

    private func entryError(
        _ kind: ZipError.Kind, _ entry: String, _ problem: String, advice: String? = nil
    ) -> ZipError {
        ZipError(kind, entry: entry, "'\(name)', entry '\(entry)': \(problem). \(advice ?? self.advice)")
    }

    /// Where the entry is, for messages.
    private func located(_ entry: ZipStreamEntry) -> String {
        "(local header at byte \(entry.localHeaderOffset))"
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return (digits.count == 1 ? "0" : "") + digits
    }
}
