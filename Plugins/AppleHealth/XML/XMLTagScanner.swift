/// Follows the markup of the body as it streams to libxml2 and keeps what libxml2 sees within
/// `XMLMarkupLimits`, rewriting bytes one for one in place, so positions never move.
///
/// libxml2 checks an element's attributes for duplicates pairwise (200,000 of them take seconds),
/// and its own limits (names of 50,000 bytes, a start tag of 10 MB, depth 256) end the whole
/// parse, so an element past any of ours must never reach it whole. Where the element goes past a
/// limit (past 256 attributes, a name past 1,024 bytes, a value past 1 MiB, a start tag past
/// 4 MiB, or deeper than 64), its start tag is ended early as an empty element, with the few
/// bytes that take (`/>`, `"/>`, `=""/>`), and the rest of the tag, its content and its end tag
/// are blanked. Blanking keeps line feeds (one overwritten by an early end goes into the next
/// blanked byte), so lines still count right. An end tag past the limits is ended early too, and so
/// are a comment, processing instruction or CDATA section past 1 MiB (counted as warnings).
///
/// Each element cut down is noted as a `Refusal`, found again by `XMLStreamParser` where libxml2
/// reports the element, which refuses it with the reason.
///
/// It runs over every byte of the body, so text and values are passed over eight bytes at a time,
/// and the state is kept in the struct between chunks.
struct XMLTagScanner {
    /// An element cut down to the limits, and why. It is found by where its start tag ends for
    /// libxml2: the offset (in the filtered stream) of the `/` of its early `/>`, which is where
    /// libxml2 stands when it reports the element.
    struct Refusal: Equatable {
        var tagEnd: Int64
        var reason: String
    }

    private enum State {
        /// Text between tags.
        case text
        /// Just after `<`.
        case tagOpen
        /// In a start tag's name.
        case elementName
        /// In a start tag, between attributes.
        case startTag
        /// In an attribute's name.
        case attributeName
        /// Between an attribute's name and its opening quote.
        case beforeValue(afterEquals: Bool)
        /// In a value, quoted by `quote`.
        case value
        /// In a character or entity reference inside a value.
        case reference
        /// In a value past a limit, looking for a place to end it: not inside a reference or a
        /// UTF-8 sequence.
        case valueToCut(inReference: Bool, reason: String)
        /// After `/` in a start tag.
        case emptyTagEnd
        /// After `</`, up to `>`.
        case endTag
        /// In an end tag past the limit, looking for a character to end it at.
        case endTagToCut
        /// After `<!`, `matched` bytes into `[CDATA[`.
        case markupDeclaration(matched: Int)
        /// After `<!-`.
        case commentOpening
        /// In a comment or a CDATA section, which ends with two `closer` bytes (`-` or `]`) and
        /// `>`; `seen` counts the closers just passed.
        case section(closer: UInt8, seen: Int)
        case instruction(afterQuestionMark: Bool)
        /// Any other `<!…>` (libxml2 refuses it in the body): passed over up to `>`.
        case declaration
    }

    /// What is being blanked.
    private enum Blanking: Equatable {
        case none
        /// The rest of a refused start tag, from its early end on.
        case restOfTag
        /// The rest of an end tag past the limit, from its early `>` on, through its own `>`.
        case restOfEndTag
        /// The content and end tag of a refused element, until the depth is `untilDepth` again.
        case content(untilDepth: Int)
        /// The rest of a comment, instruction or CDATA section past the limit, from its early end
        /// on, through its own end.
        case restOfSection
    }

    private var state = State.text
    private var blanking = Blanking.none
    private var quote: UInt8 = 0
    /// Bytes of the current name, value or end tag so far.
    private var length = 0
    /// Whether the current name is past the limit, to be cut at the next byte that starts a character.
    private var nameCutPending = false
    /// Bytes of the current start tag so far.
    private var tagLength = 0
    /// Attributes begun in the current start tag.
    private var attributes = 0
    /// Open elements, as libxml2 counts them (the one whose start tag is being read included).
    private var depth = 0
    /// Whether the current start tag is deeper than the limit: it is refused where its name ends.
    private var tooDeep = false
    /// Why the current start tag is refused, until its refusal is noted.
    private var reason: String?
    /// The bytes that end a refused tag early, written over the next blanked bytes.
    private var ending: [UInt8] = []
    private var endingWritten = 0
    /// Line feeds overwritten by an early end, which go into the next blanked bytes instead.
    private var owedLineFeeds = 0
    /// Refusals not yet taken, oldest first, from `firstRefusal` on.
    private var refusals: [Refusal] = []
    private var firstRefusal = 0

    /// The body starts inside the root element's name, whose first byte was already passed.
    mutating func enterStartTag() {
        beginStartTag()
        length = 1
        tagLength = 2
        state = .elementName
    }

    /// The body starts inside markup that is not a start tag.
    mutating func enterOtherMarkup() {
        state = .declaration
    }

    /// Comments, instructions and CDATA sections ended early, by warning kind.
    private(set) var shortenedSections: [String: Int] = [:]

    /// Whether a refusal is waiting to be taken.
    var hasRefusals: Bool { firstRefusal < refusals.count }

    /// The reason the element whose start tag ends at `tagEnd` is refused, or `nil`. Refusals of
    /// tags before `tagEnd` (which libxml2 never reported) are dropped.
    mutating func takeRefusal(forTagEndingAt tagEnd: Int64) -> String? {
        while firstRefusal < refusals.count, refusals[firstRefusal].tagEnd < tagEnd { firstRefusal += 1 }
        defer {
            if firstRefusal == refusals.count {
                refusals.removeAll(keepingCapacity: true)
                firstRefusal = 0
            }
        }
        guard firstRefusal < refusals.count, refusals[firstRefusal].tagEnd == tagEnd else { return nil }
        firstRefusal += 1
        return refusals[firstRefusal - 1].reason
    }

    // MARK: - Scanning

    /// Scans `count` bytes at `bytes` in place; `offset` is the first one's offset in the filtered stream.
    mutating func scan(_ bytes: UnsafeMutablePointer<UInt8>, count: Int, offset: Int64) {
        var index = 0
        while index < count {
            guard blanking != .none else {
                index = step(bytes, from: index, count: count, offset: offset)
                continue
            }
            let start = index
            index = step(bytes, from: index, count: count, offset: offset)
            blank(bytes, start..<index, offset: offset)
            // Only a malformed tag ends before its early end is written; libxml2 reports it.
            if blanking == .none { dropEnding() }
        }
    }

    /// Reads on from `index` in the current state and returns where it stopped.
    private mutating func step(_ bytes: UnsafeMutablePointer<UInt8>, from index: Int, count: Int, offset: Int64)
        -> Int
    {
        switch state {
        case .text:
            let end = Self.find(bytes, from: index, count: count, Self.lessThan)
            if end < count { state = .tagOpen }
            return min(end + 1, count)

        case .tagOpen:
            switch bytes[index] {
            case Self.slash:
                length = 0
                state = .endTag
            case Self.bang: state = .markupDeclaration(matched: 0)
            case Self.question:
                length = 0
                state = .instruction(afterQuestionMark: false)
            default:
                beginStartTag()
                state = .elementName
                return index
            }
            return index + 1

        case .elementName, .attributeName:
            let end = Self.nameEnd(bytes, from: index, count: count)
            tagLength += end - index
            if blanking == .none { limitName(bytes, index..<end, ended: end < count, offset: offset) }
            guard end < count else { return end }
            if case .attributeName = state {
                state = .beforeValue(afterEquals: false)
            } else {
                state = .startTag
                if tooDeep, blanking == .none { refuse(Self.tooDeepReason, ending: Self.emptyEnd) }
            }
            return end

        case .startTag:
            if blanking == .none {
                let passed = passAttributes(bytes, from: index, count: count)
                if passed > index { return passed }
            }
            let byte = bytes[index]
            tagLength += 1
            if byte == Self.greaterThan {
                endStartTag(empty: false)
            } else if byte == Self.slash {
                state = .emptyTagEnd
            } else if byte == Self.doubleQuote || byte == Self.singleQuote {
                beginValue(quote: byte)
            } else if !Self.isWhitespace(byte) {
                beginAttribute()
                return index
            } else if blanking == .none, tagLength > XMLMarkupLimits.startTagBytes {
                refuse(Self.longTag, ending: Self.emptyEnd)
                return index
            }
            return index + 1

        case .beforeValue(let afterEquals):
            let byte = bytes[index]
            tagLength += 1
            if byte == Self.doubleQuote || byte == Self.singleQuote {
                beginValue(quote: byte)
            } else if byte == Self.equals, !afterEquals {
                state = .beforeValue(afterEquals: true)
            } else if !Self.isWhitespace(byte) {
                // Malformed (an attribute without a value): libxml2 reports it.
                state = .startTag
                return index
            } else if blanking == .none, tagLength > XMLMarkupLimits.startTagBytes {
                refuse(Self.longTag, ending: afterEquals ? Self.emptyValueEnd : Self.equalsEmptyValueEnd)
                return index
            }
            return index + 1

        case .value:
            // Past a limit only when the value goes on beyond `searchEnd`.
            var searchEnd = count
            if blanking == .none {
                let room = min(XMLMarkupLimits.valueBytes - length, XMLMarkupLimits.startTagBytes - tagLength)
                searchEnd = min(count, index + max(0, room) + 1)
            }
            let end = Self.find(bytes, from: index, count: searchEnd, quote, Self.ampersand)
            length += end - index
            tagLength += end - index
            guard end < searchEnd else {
                if let reason = overLimitReason { state = .valueToCut(inReference: false, reason: reason) }
                return end
            }
            length += 1
            tagLength += 1
            state = bytes[end] == quote ? .startTag : .reference
            return end + 1

        case .reference:
            let byte = bytes[index]
            length += 1
            tagLength += 1
            if byte == quote {
                state = .startTag
            } else if byte == Self.semicolon {
                if blanking == .none, let reason = overLimitReason {
                    state = .valueToCut(inReference: false, reason: reason)
                } else {
                    state = .value
                }
            }
            return index + 1

        case .valueToCut(let inReference, let reason):
            let byte = bytes[index]
            if byte == quote {
                // The value ended before a place to cut it: the tag ends right after it.
                state = .startTag
                refuse(reason, ending: Self.emptyEnd)
            } else if inReference || byte == Self.ampersand {
                state = .valueToCut(inReference: byte != Self.semicolon, reason: reason)
            } else if !Self.isContinuationByte(byte) {
                // A character starts here: the value ends here, and its rest is blanked.
                state = .value
                refuse(reason, ending: [quote, Self.slash, Self.greaterThan])
                return index
            }
            return index + 1

        case .emptyTagEnd:
            tagLength += 1
            if bytes[index] == Self.greaterThan {
                endStartTag(empty: true)
                return index + 1
            }
            // A `/` not before `>` is malformed; libxml2 reports it.
            state = .startTag
            return index

        case .endTag:
            var searchEnd = count
            if blanking == .none { searchEnd = min(count, index + max(0, XMLMarkupLimits.nameBytes - length) + 1) }
            let end = Self.find(bytes, from: index, count: searchEnd, Self.greaterThan)
            length += end - index
            guard end < searchEnd else {
                if blanking == .none, length > XMLMarkupLimits.nameBytes { state = .endTagToCut }
                return end
            }
            endEndTag()
            return end + 1

        case .endTagToCut:
            let byte = bytes[index]
            if byte == Self.greaterThan {
                endEndTag()
                return index + 1
            }
            guard !Self.isContinuationByte(byte) else { return index + 1 }
            // Ended here for libxml2, the rest blanked through its own `>`.
            depth -= 1
            endEarly(with: [Self.greaterThan], blanking: .restOfEndTag)
            state = .endTag
            return index

        case .markupDeclaration(let matched):
            let byte = bytes[index]
            if matched == 0, byte == Self.dash {
                state = .commentOpening
            } else if byte == Self.characterDataOpening[matched] {
                let next = matched + 1
                length = 0
                state =
                    next == Self.characterDataOpening.count
                    ? .section(closer: Self.closeBracket, seen: 0) : .markupDeclaration(matched: next)
            } else {
                state = .declaration
                return index
            }
            return index + 1

        case .commentOpening:
            guard bytes[index] == Self.dash else {
                state = .declaration
                return index
            }
            length = 0
            state = .section(closer: Self.dash, seen: 0)
            return index + 1

        case .section(let closer, let seen):
            let byte = bytes[index]
            length += 1
            if byte == Self.greaterThan, seen >= 2 {
                endSection()
            } else if byte == closer {
                state = .section(closer: closer, seen: seen + 1)
            } else if blanking == .none, seen == 0, length > XMLMarkupLimits.sectionBytes {
                // Neither this byte nor the one before is a closer, so the early end is clean.
                shorten(
                    closer == Self.dash ? Self.longComment : Self.longCharacterData,
                    ending: [closer, closer, Self.greaterThan])
                return index
            } else {
                state = .section(closer: closer, seen: 0)
                var searchEnd = count
                if blanking == .none {
                    searchEnd = min(count, index + 1 + max(0, XMLMarkupLimits.sectionBytes - length) + 1)
                }
                let end = Self.find(bytes, from: index + 1, count: searchEnd, closer)
                length += end - index - 1
                return end
            }
            return index + 1

        case .instruction(let afterQuestionMark):
            let byte = bytes[index]
            length += 1
            if byte == Self.greaterThan, afterQuestionMark {
                endSection()
            } else if blanking == .none, byte != Self.question, length > XMLMarkupLimits.sectionBytes {
                shorten(Self.longInstruction, ending: [Self.question, Self.greaterThan])
                return index
            } else if byte == Self.question {
                state = .instruction(afterQuestionMark: true)
            } else {
                state = .instruction(afterQuestionMark: false)
                var searchEnd = count
                if blanking == .none {
                    searchEnd = min(count, index + 1 + max(0, XMLMarkupLimits.sectionBytes - length) + 1)
                }
                let end = Self.find(bytes, from: index + 1, count: searchEnd, Self.question)
                length += end - index - 1
                return end
            }
            return index + 1

        case .declaration:
            let end = Self.find(bytes, from: index, count: count, Self.greaterThan)
            if end < count { state = .text }
            return min(end + 1, count)
        }
    }

    // MARK: - Tags

    private mutating func beginStartTag() {
        depth += 1
        attributes = 0
        length = 0
        nameCutPending = false
        tagLength = 1
        tooDeep = blanking == .none && depth > XMLMarkupLimits.depth
    }

    private mutating func beginAttribute() {
        attributes += 1
        length = 0
        nameCutPending = false
        state = .attributeName
        if blanking == .none, attributes > XMLMarkupLimits.attributesPerElement {
            refuse(Self.tooManyAttributes, ending: Self.emptyEnd)
        }
    }

    /// The common case in one go: whole attributes `name="value"` (after any whitespace) inside
    /// this chunk and well within the limits. Returns where the first one it does not take
    /// starts; the state machine reads on from there, byte by byte.
    private mutating func passAttributes(_ bytes: UnsafeMutablePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
        while attributes < XMLMarkupLimits.attributesPerElement {
            // Whitespace is taken even when what follows is not, so none is passed over twice.
            let whitespaceEnd = min(count, index + XMLMarkupLimits.startTagBytes - tagLength)
            var nameStart = index
            while nameStart < whitespaceEnd, Self.isWhitespace(bytes[nameStart]) { nameStart += 1 }
            tagLength += nameStart - index
            index = nameStart
            guard nameStart < count, !Self.isWhitespace(bytes[nameStart]), Self.startsName(bytes[nameStart])
            else { break }
            let nameEnd = Self.nameEnd(bytes, from: nameStart, count: count)
            let quoteIndex = nameEnd + 1
            guard quoteIndex < count, nameEnd - nameStart <= XMLMarkupLimits.nameBytes, bytes[nameEnd] == Self.equals
            else { break }
            let quote = bytes[quoteIndex]
            guard quote == Self.doubleQuote || quote == Self.singleQuote else { break }
            let valueStart = quoteIndex + 1
            let valueEnd = Self.find(
                bytes, from: valueStart, count: min(count, valueStart + XMLMarkupLimits.valueBytes + 1), quote)
            let next = valueEnd + 1
            guard valueEnd < count, valueEnd - valueStart <= XMLMarkupLimits.valueBytes,
                tagLength + (next - index) <= XMLMarkupLimits.startTagBytes
            else { break }
            tagLength += next - index
            attributes += 1
            index = next
        }
        return index
    }

    private mutating func beginValue(quote: UInt8) {
        self.quote = quote
        length = 0
        state = .value
    }

    /// Why the current value must be cut, if it must.
    private var overLimitReason: String? {
        if length > XMLMarkupLimits.valueBytes { return Self.longValue }
        if tagLength > XMLMarkupLimits.startTagBytes { return Self.longTag }
        return nil
    }

    /// Refuses the current start tag from the next byte on: `ending` ends it there as an empty
    /// element, and the rest of it, its content and its end tag are blanked.
    private mutating func refuse(_ why: String, ending: [UInt8]) {
        reason = why
        endEarly(with: ending, blanking: .restOfTag)
    }

    /// The start tag ends (at its own `>`, however libxml2 saw it end).
    private mutating func endStartTag(empty: Bool) {
        state = .text
        if empty { depth -= 1 }
        guard blanking == .restOfTag else { return }
        blanking = empty ? .none : .content(untilDepth: depth - 1)
    }

    /// Ends a comment, instruction or CDATA section early, from the next byte on, with `ending`.
    private mutating func shorten(_ kind: String, ending: [UInt8]) {
        shortenedSections[kind, default: 0] += 1
        endEarly(with: ending, blanking: .restOfSection)
    }

    /// From the next byte on, `ending` is written over what follows, and then `blanking` goes on.
    private mutating func endEarly(with ending: [UInt8], blanking: Blanking) {
        self.ending = ending
        endingWritten = 0
        self.blanking = blanking
    }

    /// A comment, instruction or CDATA section ends at its own end.
    private mutating func endSection() {
        state = .text
        if blanking == .restOfSection { blanking = .none }
    }

    /// An end tag ends at its own `>`.
    private mutating func endEndTag() {
        state = .text
        switch blanking {
        case .restOfEndTag:
            blanking = .none
        case .content(let untilDepth):
            depth -= 1
            // The end tag of the refused element is blanked too (by `scan`), and then no more.
            if depth <= untilDepth { blanking = .none }
        case .none, .restOfTag, .restOfSection:
            depth -= 1
        }
    }

    /// Counts the name bytes in `range`; past the limit the tag is refused at the first byte from
    /// there that starts a character (an element's ends there with `/>`, an attribute's with
    /// `=""/>`).
    private mutating func limitName(
        _ bytes: UnsafeMutablePointer<UInt8>, _ range: Range<Int>, ended: Bool, offset: Int64
    ) {
        var cut = range.lowerBound
        if !nameCutPending {
            let room = XMLMarkupLimits.nameBytes - length
            length += range.count
            guard length > XMLMarkupLimits.nameBytes else { return }
            cut += room
            nameCutPending = true
        }
        while cut < range.upperBound, Self.isContinuationByte(bytes[cut]) { cut += 1 }
        // A character still going on in the next chunk is waited for.
        guard cut < range.upperBound || ended else { return }
        nameCutPending = false
        if case .attributeName = state {
            refuse(Self.longAttributeName, ending: Self.equalsEmptyValueEnd)
        } else {
            refuse(Self.longName, ending: Self.emptyEnd)
        }
        blank(bytes, cut..<range.upperBound, offset: offset)
    }

    // MARK: - Blanking

    /// Overwrites `range`: first with what is left of an early end, then with spaces, keeping
    /// line feeds. Notes the refusal where the early end's `/` is written.
    private mutating func blank(_ bytes: UnsafeMutablePointer<UInt8>, _ range: Range<Int>, offset: Int64) {
        for index in range {
            let byte = bytes[index]
            if endingWritten < ending.count {
                let written = ending[endingWritten]
                endingWritten += 1
                bytes[index] = written
                if written == Self.slash, let reason {
                    refusals.append(Refusal(tagEnd: offset + Int64(index), reason: reason))
                    self.reason = nil
                }
                if byte == Self.lineFeed { owedLineFeeds += 1 }
            } else if byte == Self.lineFeed {
                continue
            } else if owedLineFeeds > 0 {
                bytes[index] = Self.lineFeed
                owedLineFeeds -= 1
            } else {
                bytes[index] = Self.space
            }
        }
    }

    private mutating func dropEnding() {
        ending.removeAll(keepingCapacity: true)
        endingWritten = 0
        reason = nil
    }

    // MARK: - Bytes

    /// The index of the first byte from `start` that is `needle` or `other`, or `count`. Eight
    /// bytes at a time: a word with neither is passed whole, and in one with either the flags say
    /// where.
    @inline(__always)
    private static func find(
        _ bytes: UnsafeMutablePointer<UInt8>, from start: Int, count: Int, _ needle: UInt8, _ other: UInt8? = nil
    ) -> Int {
        let second = other ?? needle
        let needles = (broadcast(needle), broadcast(second))
        var index = start
        while index + 8 <= count {
            // Byte `i` of the word is the one at `index + i`, so the lowest flag is the first match.
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            let found = zeroBytes(word ^ needles.0) | zeroBytes(word ^ needles.1)
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < count {
            let byte = bytes[index]
            if byte == needle || byte == second { return index }
            index += 1
        }
        return count
    }

    /// The index of the first byte from `start` that ends a name (whitespace, `=`, `/`, `>`), or `count`.
    @inline(__always)
    private static func nameEnd(_ bytes: UnsafeMutablePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
        while index < count {
            let byte = bytes[index]
            if byte <= space || byte == equals || byte == slash || byte == greaterThan { return index }
            index += 1
        }
        return count
    }

    @inline(__always)
    private static func broadcast(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }

    /// The high bit of each zero byte of `word` set (and maybe of a byte above one, by a borrow:
    /// the lowest flag is always a zero byte's).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == lineFeed || byte == 0x09 || byte == 0x0D
    }

    /// Whether `byte` can start an attribute's name (anything else in a start tag is markup or malformed).
    @inline(__always)
    private static func startsName(_ byte: UInt8) -> Bool {
        byte != greaterThan && byte != slash && byte != doubleQuote && byte != singleQuote && byte != equals
    }

    @inline(__always)
    private static func isContinuationByte(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    private static let tooManyAttributes = "element_with_too_many_attributes"
    private static let tooDeepReason = "element_too_deep"
    private static let longName = "element_name_too_long"
    private static let longAttributeName = "attribute_name_too_long"
    private static let longValue = "attribute_value_too_long"
    private static let longTag = "start_tag_too_long"
    private static let longComment = "comment_too_long"
    private static let longCharacterData = "character_data_too_long"
    private static let longInstruction = "instruction_too_long"

    /// Early ends: after a name or a value, in an attribute's name, after its `=`.
    private static let emptyEnd: [UInt8] = Array("/>".utf8)
    private static let equalsEmptyValueEnd: [UInt8] = Array("=\"\"/>".utf8)
    private static let emptyValueEnd: [UInt8] = Array("\"\"/>".utf8)

    private static let characterDataOpening: [UInt8] = Array("[CDATA[".utf8)
    private static let lessThan = UInt8(ascii: "<")
    private static let greaterThan = UInt8(ascii: ">")
    private static let slash = UInt8(ascii: "/")
    private static let bang = UInt8(ascii: "!")
    private static let question = UInt8(ascii: "?")
    private static let doubleQuote = UInt8(ascii: "\"")
    private static let singleQuote = UInt8(ascii: "'")
    private static let ampersand = UInt8(ascii: "&")
    private static let semicolon = UInt8(ascii: ";")
    private static let equals = UInt8(ascii: "=")
    private static let dash = UInt8(ascii: "-")
    private static let closeBracket = UInt8(ascii: "]")
    private static let space = UInt8(ascii: " ")
    private static let lineFeed = UInt8(ascii: "\n")
}
