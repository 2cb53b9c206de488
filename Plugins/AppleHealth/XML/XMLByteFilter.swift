/// The streaming byte filter in front of libxml2: takes out the DOCTYPE and blanks illegal control
/// characters, keeping what it needs to map libxml2's positions back to the original input.
///
/// Apple's internal DTD cannot be trusted (iOS 16 shipped one with unclosed ATTLISTs and a stray
/// `>` that makes every strict parser fail) and an export never needs it, so the whole
/// `<!DOCTYPE … [ … ]>` block is dropped before libxml2 sees a byte of it. `XMLDoctypeSkipper`
/// finds its end, and rejects one that declares an entity or names an external DTD as hostile.
///
/// Control characters XML forbids (0x00–0x08, 0x0B, 0x0C, 0x0E–0x1F; some iOS 16 exports carry a
/// raw `\x0b`) become a space, one for one, so the record around them survives. They never occur
/// inside a multi-byte UTF-8 sequence, so replacing them cannot break one.
struct XMLByteFilter {
    /// The one stretch of input the filter dropped: the DOCTYPE.
    struct Removal: Equatable {
        /// Where the dropped bytes were, as an offset in the filtered output.
        var filteredStart: Int64
        /// Where they were in the original input.
        var originalStart: Int64
        /// How many bytes were dropped.
        var length: Int64
        /// How many of them were line feeds.
        var newlines: Int
        /// The original line and column of `<!DOCTYPE`.
        var startLine: Int
        var startColumn: Int
        /// Original column minus filtered column for what follows the DOCTYPE on its last line.
        var columnShift: Int
    }

    private enum State {
        /// In the prolog between markup; bytes pass through.
        case prolog
        /// After `<` in the prolog, holding back the first `matched` bytes of `<!DOCTYPE` (whatever
        /// follows all nine is treated as a DOCTYPE, so libxml2 never parses one).
        case prologMarkup(matched: Int)
        /// After `<!-` in the prolog.
        case prologCommentStart
        /// In a prolog comment; `dashes` counts the `-` just seen.
        case prologComment(dashes: Int)
        /// In a processing instruction (such as the XML declaration).
        case prologInstruction(afterQuestionMark: Bool)
        /// In the DOCTYPE, after `<!DOCTYPE` up to its `>`: read, and dropped, by `doctype`.
        case doctype
        /// After the prolog: everything passes through apart from control characters.
        case body

        var isInDoctype: Bool {
            if case .doctype = self { return true }
            return false
        }
    }

    /// A place in the original input, tracked byte by byte only until the body starts.
    struct Position {
        var offset: Int64 = 0
        var line = 1
        var column = 1
    }

    private var state = State.prolog
    private var position = Position()
    /// Where the `<!DOCTYPE` that is being matched started.
    private var markupStart = Position()
    private var doctype = XMLDoctypeSkipper()
    private var doctypeSeen = false
    /// Keeps what libxml2 sees within `XMLMarkupLimits`.
    private var tags = XMLTagScanner()

    /// The DOCTYPE that was dropped, once one was found.
    private(set) var removal: Removal?
    /// How many illegal control characters were replaced by a space so far.
    private(set) var illegalControlCharacters = 0
    /// Bytes of original input taken in so far.
    private(set) var inputOffset: Int64 = 0
    /// Bytes handed on to libxml2 so far.
    private(set) var outputOffset: Int64 = 0
    /// The stretch a resumed read passed over without parsing (it follows the DOCTYPE).
    private(set) var gap: Gap?

    /// Input a resumed read passed over between two top-level elements: never filtered or parsed.
    struct Gap: Equatable {
        /// Where the skipped bytes would have been, as an offset in the filtered output.
        var filteredStart: Int64
        var length: Int64
        var newlines: Int
    }

    /// Extra room `filter` may need in `output` beyond the input's size, for held-back bytes.
    static let outputSlack = 16

    /// Comments, instructions and CDATA sections the filter ended early, by warning kind.
    var shortenedSections: [String: Int] { tags.shortenedSections }

    /// Whether an element was cut down to the markup limits and is still to be refused.
    var hasRefusals: Bool { tags.hasRefusals }

    /// Why the element whose start tag ends at `filteredOffset` (its `>`, or the `/` of `/>`) was
    /// cut down to the markup limits, or `nil` when it was not.
    mutating func refusal(forTagEndingAt filteredOffset: Int64) -> String? {
        tags.takeRefusal(forTagEndingAt: filteredOffset)
    }

    /// Moves the clean start tags scanned since the last call (`XMLTagScanner.cleanStartTags`)
    /// into `tags`, which should be empty; its storage is kept for the next ones.
    mutating func takeCleanStartTags(into tags: inout [Range<Int64>]) {
        swap(&tags, &self.tags.cleanStartTags)
    }

    /// Whether the input so far ends inside the DOCTYPE.
    var isInDoctype: Bool { state.isInDoctype }

    // MARK: - Filtering

    /// Filters the next piece of input into `output`, which must have room for
    /// `input.count + outputSlack` bytes, and returns how many bytes were written.
    ///
    /// - Throws: `XMLStreamError` `.hostile` for an entity declaration or an external DTD,
    ///   `.malformed` for a second DOCTYPE.
    mutating func filter(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>
    ) throws(XMLStreamError) -> Int {
        var written = 0
        var index = 0
        while index < input.count {
            if case .body = state {
                written += copyBody(
                    UnsafeRawBufferPointer(rebasing: input[index...]), to: output + written,
                    at: outputOffset + Int64(written))
                break
            }
            try step(input[index], into: output, written: &written)
            index += 1
        }
        inputOffset += Int64(input.count)
        outputOffset += Int64(written)
        return written
    }

    /// Ends the input: writes any held-back bytes to `output` (room for `outputSlack` bytes) and
    /// returns how many.
    mutating func finish(into output: UnsafeMutablePointer<UInt8>) -> Int {
        guard case .prologMarkup(let matched) = state else { return 0 }
        let written = emitDoctypePrefix(matched, into: output, at: 0)
        state = .body
        outputOffset += Int64(written)
        return written
    }

    /// The body: copy, blanking illegal control characters. This is the hot loop, so it skips
    /// eight bytes at a time when none of them is below 0x20.
    private mutating func copyBody(
        _ input: UnsafeRawBufferPointer, to output: UnsafeMutablePointer<UInt8>, at filteredOffset: Int64
    ) -> Int {
        let count = input.count
        guard let source = input.baseAddress, count > 0 else { return 0 }
        UnsafeMutableRawPointer(output).copyMemory(from: source, byteCount: count)
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(output + index).loadUnaligned(as: UInt64.self)
            // Non-zero exactly when some byte of `word` is below 0x20 (tabs and line feeds included).
            if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0 {
                blankIllegalControls(output + index, count: 8)
            }
            index += 8
        }
        blankIllegalControls(output + index, count: count - index)
        tags.scan(output, count: count, offset: filteredOffset)
        return count
    }

    private mutating func blankIllegalControls(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) {
        for index in 0..<count where bytes[index] < 0x20 && XMLByteClass.isIllegalControl(bytes[index]) {
            bytes[index] = XMLByteClass.space
            illegalControlCharacters += 1
        }
    }

    /// One byte of the prolog or the DOCTYPE.
    private mutating func step(
        _ byte: UInt8, into output: UnsafeMutablePointer<UInt8>, written: inout Int
    ) throws(XMLStreamError) {
        let wasInDoctype = state.isInDoctype
        switch state {
        case .prolog: readProlog(byte, into: output, written: &written)
        case .prologMarkup(let matched): try readPrologMarkup(byte, matched: matched, into: output, written: &written)
        case .prologCommentStart: readPrologCommentStart(byte, into: output, written: &written)
        case .prologComment(let dashes): readPrologComment(byte, dashes: dashes, into: output, written: &written)
        case .prologInstruction(let afterQuestionMark):
            readPrologInstruction(byte, afterQuestionMark: afterQuestionMark, into: output, written: &written)
        case .doctype:
            // The DOCTYPE is not written out; its `>` ends it.
            if try doctype.read(byte, at: position) { endDoctype() }
        case .body: emit(byte, into: output, at: &written)
        }
        if wasInDoctype || state.isInDoctype {
            removal?.length += 1
            if byte == XMLByteClass.lineFeed { removal?.newlines += 1 }
        }
        advance(over: byte)
    }

    // MARK: - The prolog

    private mutating func readProlog(_ byte: UInt8, into output: UnsafeMutablePointer<UInt8>, written: inout Int) {
        if byte == XMLByteClass.lessThan {
            markupStart = position
            state = .prologMarkup(matched: 1)
        } else {
            emit(byte, into: output, at: &written)
        }
    }

    /// After `<`: more of `<!DOCTYPE`, held back, or other markup, which the held-back bytes are
    /// written before.
    private mutating func readPrologMarkup(
        _ byte: UInt8, matched: Int, into output: UnsafeMutablePointer<UInt8>, written: inout Int
    ) throws(XMLStreamError) {
        if byte == Self.doctypeOpening[matched] {
            if matched + 1 == Self.doctypeOpening.count {
                try beginDoctype(written: written)
            } else {
                state = .prologMarkup(matched: matched + 1)
            }
            return
        }
        written += emitDoctypePrefix(matched, into: output, at: written)
        emit(byte, into: output, at: &written)
        if matched == 1, byte == XMLByteClass.question {
            state = .prologInstruction(afterQuestionMark: false)
        } else if matched == 2, byte == XMLByteClass.dash {
            state = .prologCommentStart
        } else {
            // The root element, or something libxml2 will reject on its own.
            if matched == 1 { tags.enterStartTag() } else { tags.enterOtherMarkup() }
            state = .body
        }
    }

    private mutating func readPrologCommentStart(
        _ byte: UInt8, into output: UnsafeMutablePointer<UInt8>, written: inout Int
    ) {
        emit(byte, into: output, at: &written)
        state = byte == XMLByteClass.dash ? .prologComment(dashes: 0) : .body
    }

    private mutating func readPrologComment(
        _ byte: UInt8, dashes: Int, into output: UnsafeMutablePointer<UInt8>, written: inout Int
    ) {
        emit(byte, into: output, at: &written)
        if byte == XMLByteClass.greaterThan, dashes >= 2 {
            state = .prolog
        } else {
            state = .prologComment(dashes: byte == XMLByteClass.dash ? dashes + 1 : 0)
        }
    }

    private mutating func readPrologInstruction(
        _ byte: UInt8, afterQuestionMark: Bool, into output: UnsafeMutablePointer<UInt8>, written: inout Int
    ) {
        emit(byte, into: output, at: &written)
        if byte == XMLByteClass.greaterThan, afterQuestionMark {
            state = .prolog
        } else {
            state = .prologInstruction(afterQuestionMark: byte == XMLByteClass.question)
        }
    }

    // MARK: - The DOCTYPE

    private mutating func beginDoctype(written: Int) throws(XMLStreamError) {
        if doctypeSeen {
            throw XMLStreamError(
                kind: .malformed,
                message: "The export has a second DOCTYPE; a well-formed XML file has at most one. The file "
                    + "is damaged or was edited: export the data again from the Health app.",
                line: markupStart.line, column: markupStart.column, byteOffset: markupStart.offset)
        }
        doctypeSeen = true
        // The `E` that completed `<!DOCTYPE` is counted by `step`, like every byte after it.
        removal = Removal(
            filteredStart: outputOffset + Int64(written), originalStart: markupStart.offset,
            length: Int64(Self.doctypeOpening.count - 1), newlines: 0,
            startLine: markupStart.line, startColumn: markupStart.column, columnShift: 0)
        doctype = XMLDoctypeSkipper()
        state = .doctype
    }

    private mutating func endDoctype() {
        // `position` is still the `>`; what follows it starts one column further on.
        if let startColumn = removal?.startColumn {
            removal?.columnShift = position.column + 1 - startColumn
        }
        state = .prolog
    }

    // MARK: - Output and position

    private mutating func emit(_ byte: UInt8, into output: UnsafeMutablePointer<UInt8>, at written: inout Int) {
        if byte < 0x20 && XMLByteClass.isIllegalControl(byte) {
            output[written] = XMLByteClass.space
            illegalControlCharacters += 1
        } else {
            output[written] = byte
        }
        written += 1
    }

    /// Writes the held-back first `matched` bytes of `<!DOCTYPE` and returns how many.
    private func emitDoctypePrefix(_ matched: Int, into output: UnsafeMutablePointer<UInt8>, at written: Int)
        -> Int
    {
        for index in 0..<matched { output[written + index] = Self.doctypeOpening[index] }
        return matched
    }

    private mutating func advance(over byte: UInt8) {
        position.offset += 1
        if byte == XMLByteClass.lineFeed {
            position.line += 1
            position.column = 1
        } else {
            position.column += 1
        }
    }

    // MARK: - Mapping libxml2's positions back

    /// Notes that `length` bytes of input holding `newlines` line feeds were passed over here,
    /// between two top-level elements, so positions after them map back past the gap.
    mutating func skip(_ length: Int64, newlines: Int) {
        precondition(gap == nil && !state.isInDoctype, "one gap, after the prolog")
        gap = Gap(filteredStart: outputOffset, length: length, newlines: newlines)
        inputOffset += length
    }

    /// The original offset of a byte libxml2 saw at `filteredOffset`.
    func originalOffset(ofFiltered filteredOffset: Int64) -> Int64 {
        var original = filteredOffset
        if let removal, filteredOffset >= removal.filteredStart { original += removal.length }
        if let gap, filteredOffset >= gap.filteredStart { original += gap.length }
        return original
    }

    /// The original line and column of what libxml2 reported at `line`, `column`, `filteredOffset`.
    /// (After a gap the column of the line it ends on is libxml2's, counted from before the gap.)
    func originalPosition(line: Int, column: Int, filteredOffset: Int64) -> (line: Int, column: Int) {
        let gapLines = gap.map { filteredOffset >= $0.filteredStart ? $0.newlines : 0 } ?? 0
        let (line, column) = positionPastDoctype(line: line, column: column, filteredOffset: filteredOffset)
        return (line + gapLines, column)
    }

    private func positionPastDoctype(line: Int, column: Int, filteredOffset: Int64) -> (line: Int, column: Int) {
        guard let removal, line >= removal.startLine else { return (line, column) }
        if line > removal.startLine { return (line + removal.newlines, column) }
        guard filteredOffset >= removal.filteredStart else { return (line, column) }
        return (line + removal.newlines, column + removal.columnShift)
    }

    private static let doctypeOpening: [UInt8] = Array("<!DOCTYPE".utf8)
}
