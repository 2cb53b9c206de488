/// Reads start and end tags for `XMLTagScanner`, from the byte after `<`, and keeps each element
/// within `XMLMarkupLimits`: the number of attributes, the size of names, values and the start tag,
/// and the depth, which it follows from tag to tag.
///
/// An element past a limit is refused through the blanker, with the bytes that end its start tag
/// early right there (`/>` after a name or a value, `"/>` inside a value, `=""/>` inside an
/// attribute's name, `""/>` after its `=`). An end tag past the limit is ended early with `>`.
struct XMLElementTagScanner {
    private enum State {
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
        /// Past the tag's own `>`: no tag is being read.
        case ended
    }

    private var state = State.ended
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

    /// Whether the last tag that ended was a start tag (`>` or, for an empty element, `/>`).
    private(set) var endedStartTag = false

    /// Whether the tag ended at its own `>`, so what follows is text again.
    var hasEnded: Bool {
        if case .ended = state { return true }
        return false
    }

    /// A start tag begins at the first byte of its name. In content being blanked, its depth is
    /// counted but not limited.
    mutating func beginStartTag(whileBlanking blanking: Bool) {
        depth += 1
        attributes = 0
        length = 0
        nameCutPending = false
        tagLength = 1
        tooDeep = !blanking && depth > XMLMarkupLimits.depth
        state = .elementName
    }

    /// The body starts inside the root element's name, whose first byte was already passed.
    mutating func enterStartTag() {
        beginStartTag(whileBlanking: false)
        length = 1
        tagLength = 2
    }

    /// An end tag begins after its `</`.
    mutating func beginEndTag() {
        length = 0
        state = .endTag
    }

    // MARK: - Scanning

    /// Reads on from `index` in the current state and returns where it stopped; what goes past a
    /// limit is handed to `blanker`.
    mutating func step(
        _ bytes: UnsafeMutablePointer<UInt8>, from index: Int, count: Int, offset: Int64,
        blanker: inout XMLBlanker
    ) -> Int {
        switch state {
        case .elementName, .attributeName:
            return readName(bytes, from: index, count: count, offset: offset, blanker: &blanker)
        case .startTag:
            return readStartTag(bytes, from: index, count: count, blanker: &blanker)
        case .beforeValue(let afterEquals):
            return readBeforeValue(bytes[index], at: index, afterEquals: afterEquals, blanker: &blanker)
        case .value:
            return readValue(bytes, from: index, count: count, blanker: &blanker)
        case .reference:
            return readReference(bytes[index], at: index, blanker: &blanker)
        case .valueToCut(let inReference, let reason):
            return cutValue(bytes[index], at: index, inReference: inReference, reason: reason, blanker: &blanker)
        case .emptyTagEnd:
            return readEmptyTagEnd(bytes[index], at: index, blanker: &blanker)
        case .endTag:
            return readEndTag(bytes, from: index, count: count, blanker: &blanker)
        case .endTagToCut:
            return cutEndTag(bytes[index], at: index, blanker: &blanker)
        case .ended:
            preconditionFailure("XMLElementTagScanner stepped outside a tag")
        }
    }

    // MARK: - Names

    /// An element's or an attribute's name, up to the byte that ends it.
    @inline(__always)
    private mutating func readName(
        _ bytes: UnsafeMutablePointer<UInt8>, from index: Int, count: Int, offset: Int64,
        blanker: inout XMLBlanker
    ) -> Int {
        let end = XMLByteClass.nameEnd(bytes, from: index, count: count)
        tagLength += end - index
        if !blanker.isBlanking {
            limitName(bytes, index..<end, ended: end < count, offset: offset, blanker: &blanker)
        }
        guard end < count else { return end }
        if case .attributeName = state {
            state = .beforeValue(afterEquals: false)
        } else {
            state = .startTag
            if tooDeep, !blanker.isBlanking { blanker.refuse(Self.tooDeepReason, ending: Self.emptyEnd) }
        }
        return end
    }

    /// Counts the name bytes in `range`; past the limit the tag is refused at the first byte from
    /// there that starts a character (an element's ends there with `/>`, an attribute's with
    /// `=""/>`).
    private mutating func limitName(
        _ bytes: UnsafeMutablePointer<UInt8>, _ range: Range<Int>, ended: Bool, offset: Int64,
        blanker: inout XMLBlanker
    ) {
        var cut = range.lowerBound
        if !nameCutPending {
            let room = XMLMarkupLimits.nameBytes - length
            length += range.count
            guard length > XMLMarkupLimits.nameBytes else { return }
            cut += room
            nameCutPending = true
        }
        while cut < range.upperBound, XMLByteClass.isContinuationByte(bytes[cut]) { cut += 1 }
        // A character still going on in the next chunk is waited for.
        guard cut < range.upperBound || ended else { return }
        nameCutPending = false
        if case .attributeName = state {
            blanker.refuse(Self.longAttributeName, ending: Self.equalsEmptyValueEnd)
        } else {
            blanker.refuse(Self.longName, ending: Self.emptyEnd)
        }
        blanker.blank(bytes, cut..<range.upperBound, offset: offset)
    }

    // MARK: - Start tags

    /// Between attributes: whole attributes at once where it can, else one byte.
    @inline(__always)
    private mutating func readStartTag(
        _ bytes: UnsafeMutablePointer<UInt8>, from index: Int, count: Int, blanker: inout XMLBlanker
    ) -> Int {
        if !blanker.isBlanking {
            let passed = passAttributes(bytes, from: index, count: count)
            if passed > index { return passed }
        }
        let byte = bytes[index]
        tagLength += 1
        if byte == XMLByteClass.greaterThan {
            endStartTag(empty: false, blanker: &blanker)
        } else if byte == XMLByteClass.slash {
            state = .emptyTagEnd
        } else if byte == XMLByteClass.doubleQuote || byte == XMLByteClass.singleQuote {
            beginValue(quote: byte)
        } else if !XMLByteClass.isWhitespace(byte) {
            beginAttribute(blanker: &blanker)
            return index
        } else if !blanker.isBlanking, tagLength > XMLMarkupLimits.startTagBytes {
            blanker.refuse(Self.longTag, ending: Self.emptyEnd)
            return index
        }
        return index + 1
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
            while nameStart < whitespaceEnd, XMLByteClass.isWhitespace(bytes[nameStart]) { nameStart += 1 }
            tagLength += nameStart - index
            index = nameStart
            guard nameStart < count, !XMLByteClass.isWhitespace(bytes[nameStart]),
                XMLByteClass.startsName(bytes[nameStart])
            else { break }
            let nameEnd = XMLByteClass.nameEnd(bytes, from: nameStart, count: count)
            let quoteIndex = nameEnd + 1
            guard quoteIndex < count, nameEnd - nameStart <= XMLMarkupLimits.nameBytes,
                bytes[nameEnd] == XMLByteClass.equals
            else { break }
            let quote = bytes[quoteIndex]
            guard quote == XMLByteClass.doubleQuote || quote == XMLByteClass.singleQuote else { break }
            let valueStart = quoteIndex + 1
            let valueEnd = XMLByteClass.find(
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

    private mutating func beginAttribute(blanker: inout XMLBlanker) {
        attributes += 1
        length = 0
        nameCutPending = false
        state = .attributeName
        if !blanker.isBlanking, attributes > XMLMarkupLimits.attributesPerElement {
            blanker.refuse(Self.tooManyAttributes, ending: Self.emptyEnd)
        }
    }

    /// A byte between an attribute's name and its opening quote.
    @inline(__always)
    private mutating func readBeforeValue(_ byte: UInt8, at index: Int, afterEquals: Bool, blanker: inout XMLBlanker)
        -> Int
    {
        tagLength += 1
        if byte == XMLByteClass.doubleQuote || byte == XMLByteClass.singleQuote {
            beginValue(quote: byte)
        } else if byte == XMLByteClass.equals, !afterEquals {
            state = .beforeValue(afterEquals: true)
        } else if !XMLByteClass.isWhitespace(byte) {
            // Malformed (an attribute without a value): libxml2 reports it.
            state = .startTag
            return index
        } else if !blanker.isBlanking, tagLength > XMLMarkupLimits.startTagBytes {
            blanker.refuse(Self.longTag, ending: afterEquals ? Self.emptyValueEnd : Self.equalsEmptyValueEnd)
            return index
        }
        return index + 1
    }

    /// After `/` in a start tag: `>` ends it as an empty element.
    @inline(__always)
    private mutating func readEmptyTagEnd(_ byte: UInt8, at index: Int, blanker: inout XMLBlanker) -> Int {
        tagLength += 1
        if byte == XMLByteClass.greaterThan {
            endStartTag(empty: true, blanker: &blanker)
            return index + 1
        }
        // A `/` not before `>` is malformed; libxml2 reports it.
        state = .startTag
        return index
    }

    /// The start tag ends (at its own `>`, however libxml2 saw it end).
    private mutating func endStartTag(empty: Bool, blanker: inout XMLBlanker) {
        state = .ended
        endedStartTag = true
        if empty { depth -= 1 }
        blanker.startTagEnded(empty: empty, depth: depth)
    }

    // MARK: - Values

    private mutating func beginValue(quote: UInt8) {
        self.quote = quote
        length = 0
        state = .value
    }

    /// A value, eight bytes at a time, up to its closing quote or a reference.
    @inline(__always)
    private mutating func readValue(
        _ bytes: UnsafeMutablePointer<UInt8>, from index: Int, count: Int, blanker: inout XMLBlanker
    ) -> Int {
        // Past a limit only when the value goes on beyond `searchEnd`.
        var searchEnd = count
        if !blanker.isBlanking {
            let room = min(XMLMarkupLimits.valueBytes - length, XMLMarkupLimits.startTagBytes - tagLength)
            searchEnd = min(count, index + max(0, room) + 1)
        }
        let end = XMLByteClass.find(bytes, from: index, count: searchEnd, quote, XMLByteClass.ampersand)
        length += end - index
        tagLength += end - index
        guard end < searchEnd else {
            // Inside an element already refused the whole of it is blanked: nothing more to cut.
            if !blanker.isBlanking, let reason = overLimitReason {
                state = .valueToCut(inReference: false, reason: reason)
            }
            return end
        }
        length += 1
        tagLength += 1
        state = bytes[end] == quote ? .startTag : .reference
        return end + 1
    }

    /// A byte of a character or entity reference inside a value.
    @inline(__always)
    private mutating func readReference(_ byte: UInt8, at index: Int, blanker: inout XMLBlanker) -> Int {
        length += 1
        tagLength += 1
        if byte == quote {
            state = .startTag
        } else if byte == XMLByteClass.semicolon {
            if !blanker.isBlanking, let reason = overLimitReason {
                state = .valueToCut(inReference: false, reason: reason)
            } else {
                state = .value
            }
        }
        return index + 1
    }

    /// Why the current value must be cut, if it must.
    private var overLimitReason: String? {
        if length > XMLMarkupLimits.valueBytes { return Self.longValue }
        if tagLength > XMLMarkupLimits.startTagBytes { return Self.longTag }
        return nil
    }

    /// A byte of a value past a limit: the value is cut before the first one that starts a
    /// character outside a reference.
    @inline(__always)
    private mutating func cutValue(
        _ byte: UInt8, at index: Int, inReference: Bool, reason: String, blanker: inout XMLBlanker
    ) -> Int {
        if byte == quote {
            // The value ended before a place to cut it: the tag ends right after it.
            state = .startTag
            blanker.refuse(reason, ending: Self.emptyEnd)
        } else if inReference || byte == XMLByteClass.ampersand {
            state = .valueToCut(inReference: byte != XMLByteClass.semicolon, reason: reason)
        } else if !XMLByteClass.isContinuationByte(byte) {
            // A character starts here: the value ends here, and its rest is blanked.
            state = .value
            blanker.refuse(reason, ending: [quote, XMLByteClass.slash, XMLByteClass.greaterThan])
            return index
        }
        return index + 1
    }

    // MARK: - End tags

    /// An end tag, up to its `>`.
    @inline(__always)
    private mutating func readEndTag(
        _ bytes: UnsafeMutablePointer<UInt8>, from index: Int, count: Int, blanker: inout XMLBlanker
    ) -> Int {
        var searchEnd = count
        if !blanker.isBlanking {
            searchEnd = min(count, index + max(0, XMLMarkupLimits.nameBytes - length) + 1)
        }
        let end = XMLByteClass.find(bytes, from: index, count: searchEnd, XMLByteClass.greaterThan)
        length += end - index
        guard end < searchEnd else {
            if !blanker.isBlanking, length > XMLMarkupLimits.nameBytes { state = .endTagToCut }
            return end
        }
        endEndTag(blanker: &blanker)
        return end + 1
    }

    /// A byte of an end tag past the limit: it is ended early before the first one that starts a
    /// character.
    @inline(__always)
    private mutating func cutEndTag(_ byte: UInt8, at index: Int, blanker: inout XMLBlanker) -> Int {
        if byte == XMLByteClass.greaterThan {
            endEndTag(blanker: &blanker)
            return index + 1
        }
        guard !XMLByteClass.isContinuationByte(byte) else { return index + 1 }
        // Ended here for libxml2, the rest blanked through its own `>`, where the depth drops.
        blanker.endEndTagEarly()
        state = .endTag
        return index
    }

    /// An end tag ends at its own `>`, closing an element (for libxml2 perhaps at an early `>`).
    private mutating func endEndTag(blanker: inout XMLBlanker) {
        state = .ended
        endedStartTag = false
        depth -= 1
        blanker.endTagEnded(depth: depth)
    }

    // MARK: - Reasons and early ends

    private static let tooManyAttributes = "element_with_too_many_attributes"
    private static let tooDeepReason = "element_too_deep"
    private static let longName = "element_name_too_long"
    private static let longAttributeName = "attribute_name_too_long"
    private static let longValue = "attribute_value_too_long"
    private static let longTag = "start_tag_too_long"

    /// Early ends: after a name or a value, in an attribute's name, after its `=`.
    private static let emptyEnd: [UInt8] = Array("/>".utf8)
    private static let equalsEmptyValueEnd: [UInt8] = Array("=\"\"/>".utf8)
    private static let emptyValueEnd: [UInt8] = Array("\"\"/>".utf8)
}
