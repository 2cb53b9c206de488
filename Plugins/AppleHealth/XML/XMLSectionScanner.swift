/// Reads the rest of what starts with `<` in the body for `XMLTagScanner`: comments, CDATA sections
/// and processing instructions (the "sections"), and any other `<!…>`.
///
/// libxml2 wants a section whole, so one past `XMLMarkupLimits.sectionBytes` is ended early through
/// the blanker (`-->`, `]]>`, `?>`) and counted by warning kind. Any other `<!…>` (libxml2 refuses
/// it in the body) is passed over up to `>`.
struct XMLSectionScanner {
    private enum State {
        /// After `<!`, `matched` bytes into `[CDATA[`.
        case markupDeclaration(matched: Int)
        /// After `<!-`.
        case commentOpening
        /// In a comment or a CDATA section, which ends with two `closer` bytes (`-` or `]`) and
        /// `>`; `seen` counts the closers just passed.
        case section(closer: UInt8, seen: Int)
        /// In a processing instruction, which ends with `?>`.
        case instruction(afterQuestionMark: Bool)
        /// Any other `<!…>`: passed over up to `>`.
        case declaration
        /// Past the markup's end: nothing is being read.
        case ended
    }

    private var state = State.ended
    /// Bytes of the current section so far.
    private var length = 0

    /// Comments, instructions and CDATA sections ended early, by warning kind.
    private(set) var shortenedSections: [String: Int] = [:]

    /// Whether the markup ended, so what follows is text again.
    var hasEnded: Bool {
        if case .ended = state { return true }
        return false
    }

    /// Markup begins after its `<!`.
    mutating func beginMarkupDeclaration() {
        state = .markupDeclaration(matched: 0)
    }

    /// A processing instruction begins after its `<?`.
    mutating func beginInstruction() {
        length = 0
        state = .instruction(afterQuestionMark: false)
    }

    /// The body starts inside markup that is not a start tag: it is passed over up to `>`.
    mutating func beginDeclaration() {
        state = .declaration
    }

    // MARK: - Scanning

    /// Reads on from `index` in the current state and returns where it stopped; a section past the
    /// limit is handed to `blanker`.
    mutating func step(
        _ bytes: UnsafeMutablePointer<UInt8>, from index: Int, count: Int, blanker: inout XMLBlanker
    ) -> Int {
        switch state {
        case .markupDeclaration(let matched):
            return readMarkupDeclaration(bytes[index], at: index, matched: matched)
        case .commentOpening:
            return readCommentOpening(bytes[index], at: index)
        case .section(let closer, let seen):
            return readSection(bytes, from: index, count: count, closer: closer, seen: seen, blanker: &blanker)
        case .instruction(let afterQuestionMark):
            return readInstruction(
                bytes, from: index, count: count, afterQuestionMark: afterQuestionMark, blanker: &blanker)
        case .declaration:
            let end = XMLByteClass.find(bytes, from: index, count: count, XMLByteClass.greaterThan)
            if end < count { state = .ended }
            return min(end + 1, count)
        case .ended:
            preconditionFailure("XMLSectionScanner stepped outside markup")
        }
    }

    /// A byte after `<!`: a comment or CDATA section begins, or else a declaration.
    @inline(__always)
    private mutating func readMarkupDeclaration(_ byte: UInt8, at index: Int, matched: Int) -> Int {
        if matched == 0, byte == XMLByteClass.dash {
            state = .commentOpening
        } else if byte == Self.characterDataOpening[matched] {
            let next = matched + 1
            length = 0
            state =
                next == Self.characterDataOpening.count
                ? .section(closer: XMLByteClass.closeBracket, seen: 0) : .markupDeclaration(matched: next)
        } else {
            state = .declaration
            return index
        }
        return index + 1
    }

    /// The byte after `<!-`: a second `-` begins a comment.
    @inline(__always)
    private mutating func readCommentOpening(_ byte: UInt8, at index: Int) -> Int {
        guard byte == XMLByteClass.dash else {
            state = .declaration
            return index
        }
        length = 0
        state = .section(closer: XMLByteClass.dash, seen: 0)
        return index + 1
    }

    /// A comment or CDATA section: a byte at a time near its end, else on to the next `closer`.
    @inline(__always)
    private mutating func readSection(
        _ bytes: UnsafeMutablePointer<UInt8>, from index: Int, count: Int, closer: UInt8, seen: Int,
        blanker: inout XMLBlanker
    ) -> Int {
        let byte = bytes[index]
        length += 1
        if byte == XMLByteClass.greaterThan, seen >= 2 {
            endSection(blanker: &blanker)
        } else if byte == closer {
            state = .section(closer: closer, seen: seen + 1)
        } else if !blanker.isBlanking, seen == 0, length > XMLMarkupLimits.sectionBytes {
            // Neither this byte nor the one before is a closer, so the early end is clean.
            shorten(
                closer == XMLByteClass.dash ? Self.longComment : Self.longCharacterData,
                ending: [closer, closer, XMLByteClass.greaterThan], blanker: &blanker)
            return index
        } else {
            state = .section(closer: closer, seen: 0)
            var searchEnd = count
            if !blanker.isBlanking {
                searchEnd = min(count, index + 1 + max(0, XMLMarkupLimits.sectionBytes - length) + 1)
            }
            let end = XMLByteClass.find(bytes, from: index + 1, count: searchEnd, closer)
            length += end - index - 1
            return end
        }
        return index + 1
    }

    /// A processing instruction: a byte at a time near its end, else on to the next `?`.
    @inline(__always)
    private mutating func readInstruction(
        _ bytes: UnsafeMutablePointer<UInt8>, from index: Int, count: Int, afterQuestionMark: Bool,
        blanker: inout XMLBlanker
    ) -> Int {
        let byte = bytes[index]
        length += 1
        if byte == XMLByteClass.greaterThan, afterQuestionMark {
            endSection(blanker: &blanker)
        } else if !blanker.isBlanking, byte != XMLByteClass.question, length > XMLMarkupLimits.sectionBytes {
            shorten(
                Self.longInstruction, ending: [XMLByteClass.question, XMLByteClass.greaterThan],
                blanker: &blanker)
            return index
        } else if byte == XMLByteClass.question {
            state = .instruction(afterQuestionMark: true)
        } else {
            state = .instruction(afterQuestionMark: false)
            var searchEnd = count
            if !blanker.isBlanking {
                searchEnd = min(count, index + 1 + max(0, XMLMarkupLimits.sectionBytes - length) + 1)
            }
            let end = XMLByteClass.find(bytes, from: index + 1, count: searchEnd, XMLByteClass.question)
            length += end - index - 1
            return end
        }
        return index + 1
    }

    /// Ends a comment, instruction or CDATA section early, from the next byte on, with `ending`.
    private mutating func shorten(_ kind: String, ending: [UInt8], blanker: inout XMLBlanker) {
        shortenedSections[kind, default: 0] += 1
        blanker.endSectionEarly(with: ending)
    }

    /// A comment, instruction or CDATA section ends at its own end.
    private mutating func endSection(blanker: inout XMLBlanker) {
        state = .ended
        blanker.sectionEnded()
    }

    private static let longComment = "comment_too_long"
    private static let longCharacterData = "character_data_too_long"
    private static let longInstruction = "instruction_too_long"

    private static let characterDataOpening: [UInt8] = Array("[CDATA[".utf8)
}
