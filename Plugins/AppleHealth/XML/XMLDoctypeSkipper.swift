/// Reads a DOCTYPE for `XMLByteFilter`, which drops it, byte by byte from after `<!DOCTYPE` to its
/// closing `>`, and rejects one that declares an entity (`<!ENTITY`) or names an external DTD
/// (`SYSTEM`, `PUBLIC`) as hostile: Apple's DTD does neither.
///
/// The internal subset ends at the first `]` followed by optional whitespace and `>`, outside
/// comments; nothing else in it is trusted to be well formed.
struct XMLDoctypeSkipper {
    private enum State {
        /// Between `<!DOCTYPE` and `[` or `>`: the root name and any external identifier.
        case header
        /// In the internal subset, `matched` bytes into `<!ENTITY`.
        case internalSubset(matched: Int)
        /// After `<!-` in the internal subset.
        case subsetCommentStart
        /// In a comment in the internal subset, which may contain anything, `]>` included.
        case subsetComment(dashes: Int)
        /// After `]` and optional whitespace: a `>` now ends the DOCTYPE.
        case subsetClosing
    }

    private var state = State.header
    /// Where the `<!ENTITY` that is being matched started.
    private var markupStart = XMLByteFilter.Position()
    /// The word of the header being read, packed big-endian (first 8 bytes), and its length.
    private var headerWord: UInt64 = 0
    private var headerWordLength = 0
    private var headerWordStart = XMLByteFilter.Position()

    /// Reads `byte`, found at `position` in the original input; returns whether it is the
    /// DOCTYPE's closing `>`.
    ///
    /// - Throws: `XMLStreamError` `.hostile` for an entity declaration or an external DTD.
    mutating func read(_ byte: UInt8, at position: XMLByteFilter.Position) throws(XMLStreamError) -> Bool {
        switch state {
        case .header:
            return try readHeader(byte, at: position)

        case .internalSubset(let matched):
            try readSubset(byte, matched: matched, at: position)

        case .subsetCommentStart:
            guard byte == XMLByteClass.dash else {
                // Not a comment after all: the byte is the subset's.
                try readSubset(byte, matched: 0, at: position)
                return false
            }
            state = .subsetComment(dashes: 0)

        case .subsetComment(let dashes):
            if byte == XMLByteClass.greaterThan, dashes >= 2 {
                state = .internalSubset(matched: 0)
            } else {
                state = .subsetComment(dashes: byte == XMLByteClass.dash ? dashes + 1 : 0)
            }

        case .subsetClosing:
            if byte == XMLByteClass.greaterThan { return true }
            if !XMLByteClass.isWhitespace(byte), byte != XMLByteClass.closeBracket {
                // The subset goes on from this byte.
                try readSubset(byte, matched: 0, at: position)
            }
        }
        return false
    }

    /// A byte of the header: words are checked for `SYSTEM` and `PUBLIC` as they end.
    private mutating func readHeader(_ byte: UInt8, at position: XMLByteFilter.Position) throws(XMLStreamError)
        -> Bool
    {
        let endsWord =
            XMLByteClass.isWhitespace(byte) || byte == XMLByteClass.openBracket || byte == XMLByteClass.greaterThan
            || byte == XMLByteClass.doubleQuote || byte == XMLByteClass.singleQuote
        guard endsWord else {
            if headerWordLength == 0 { headerWordStart = position }
            if headerWordLength < 8 { headerWord = headerWord << 8 | UInt64(byte) }
            headerWordLength += 1
            return false
        }
        try endHeaderWord()
        if byte == XMLByteClass.openBracket { state = .internalSubset(matched: 0) }
        return byte == XMLByteClass.greaterThan
    }

    private mutating func endHeaderWord() throws(XMLStreamError) {
        defer {
            headerWord = 0
            headerWordLength = 0
        }
        guard headerWordLength == 6, headerWord == Self.system || headerWord == Self.public else { return }
        throw Self.hostile(Self.externalDTD, at: headerWordStart)
    }

    /// A byte of the internal subset, `matched` bytes into `<!ENTITY`.
    private mutating func readSubset(_ byte: UInt8, matched: Int, at position: XMLByteFilter.Position)
        throws(XMLStreamError)
    {
        if matched > 0, matched < Self.entity.count, byte == Self.entity[matched] {
            if matched + 1 == Self.entity.count {
                throw Self.hostile(Self.declaresEntity, at: markupStart)
            }
            state = .internalSubset(matched: matched + 1)
        } else if matched == 2, byte == XMLByteClass.dash {
            state = .subsetCommentStart
        } else if byte == XMLByteClass.lessThan {
            markupStart = position
            state = .internalSubset(matched: 1)
        } else if byte == XMLByteClass.closeBracket {
            state = .subsetClosing
        } else {
            state = .internalSubset(matched: 0)
        }
    }

    private static func hostile(_ message: String, at place: XMLByteFilter.Position) -> XMLStreamError {
        XMLStreamError(
            kind: .hostile, message: message, line: place.line, column: place.column, byteOffset: place.offset
        )
    }

    private static let declaresEntity =
        "The export's DOCTYPE declares an entity (<!ENTITY). Apple Health exports never declare entities; "
        + "this file was crafted or damaged and is not read. Export the data again from the Health app."

    private static let externalDTD =
        "The export's DOCTYPE points at an external DTD (SYSTEM or PUBLIC). Apple Health exports carry "
        + "their DTD inline; this file was crafted or damaged and is not read. Export the data again from "
        + "the Health app."

    private static let entity: [UInt8] = Array("<!ENTITY".utf8)
    private static let system = XMLByteClass.packed("SYSTEM")
    private static let `public` = XMLByteClass.packed("PUBLIC")
}
