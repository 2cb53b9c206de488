/// Follows start tags through the body as it streams to libxml2 and blanks, one for one, every
/// attribute after the first `XMLMarkupLimits.attributesPerElement + 1` of an element, so libxml2
/// never checks more than that many for duplicates. The element still has one attribute too
/// many, which is how `XMLStreamParser` knows to refuse it; byte positions do not change.
///
/// It runs over every byte of the body, so each state is a tight loop looking for the one or
/// two bytes that end it, with the state kept in locals.
struct XMLTagScanner {
    private enum State {
        /// Text between tags.
        case text
        /// Just after `<`.
        case tagOpen
        /// In a start tag, outside any value.
        case startTag
        /// In a value, quoted by `quote`.
        case value
        /// In an end tag, comment, CDATA section or processing instruction: passed over up to `>`.
        /// (A `>` inside a comment ends it early; the next `<` resynchronises.)
        case otherMarkup
        /// In a start tag past the limit: blanked up to its `>` (a `/` before it is kept).
        case excess
        /// In a value of such a tag.
        case excessValue
    }

    private var state = State.text
    private var quote: UInt8 = 0
    /// Values opened so far in the current start tag: one per attribute.
    private var attributes = 0

    /// The body starts inside a start tag (the root element's, past its first byte).
    mutating func enterStartTag() {
        attributes = 0
        state = .startTag
    }

    /// The body starts inside markup that is not a start tag.
    mutating func enterOtherMarkup() {
        state = .otherMarkup
    }

    /// Scans `count` bytes at `bytes` in place.
    mutating func scan(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) {
        var state = self.state
        var quote = self.quote
        var attributes = self.attributes
        defer {
            self.state = state
            self.quote = quote
            self.attributes = attributes
        }
        var index = 0
        while index < count {
            switch state {
            case .text:
                index = Self.skip(bytes, from: index, count: count, until: Self.lessThan)
                guard index < count else { return }
                state = .tagOpen
            case .tagOpen:
                let byte = bytes[index]
                if byte == Self.slash || byte == Self.bang || byte == Self.question {
                    state = .otherMarkup
                } else {
                    attributes = 0
                    state = .startTag
                }
            case .startTag:
                index = Self.skip(
                    bytes, from: index, count: count, until: Self.doubleQuote, Self.singleQuote, Self.greaterThan)
                guard index < count else { return }
                if bytes[index] == Self.greaterThan {
                    state = .text
                } else {
                    quote = bytes[index]
                    attributes += 1
                    state = .value
                }
            case .value:
                index = Self.skip(bytes, from: index, count: count, until: quote)
                guard index < count else { return }
                state = attributes > XMLMarkupLimits.attributesPerElement ? .excess : .startTag
            case .otherMarkup:
                index = Self.skip(bytes, from: index, count: count, until: Self.greaterThan)
                guard index < count else { return }
                state = .text
            case .excess:
                let byte = bytes[index]
                if byte == Self.greaterThan {
                    state = .text
                } else if byte != Self.slash {
                    if byte == Self.doubleQuote || byte == Self.singleQuote {
                        quote = byte
                        state = .excessValue
                    }
                    bytes[index] = Self.space
                }
            case .excessValue:
                if bytes[index] == quote { state = .excess }
                bytes[index] = Self.space
            }
            index += 1
        }
    }

    /// The index of the first byte from `start` that is one of the needles (a needle may repeat),
    /// or `count`. Eight bytes at a time: a word none of whose bytes is a needle is passed whole.
    @inline(__always)
    private static func skip(_ bytes: UnsafeMutablePointer<UInt8>, from start: Int, count: Int, until needle: UInt8)
        -> Int
    {
        skip(bytes, from: start, count: count, until: needle, needle, needle)
    }

    @inline(__always)
    private static func skip(
        _ bytes: UnsafeMutablePointer<UInt8>, from start: Int, count: Int, until first: UInt8, _ second: UInt8,
        _ third: UInt8
    ) -> Int {
        let needles = (broadcast(first), broadcast(second), broadcast(third))
        var index = start
        while index + 8 <= count {
            let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
            if hasZeroByte(word ^ needles.0) || hasZeroByte(word ^ needles.1) || hasZeroByte(word ^ needles.2) {
                break
            }
            index += 8
        }
        while index < count {
            let byte = bytes[index]
            if byte == first || byte == second || byte == third { return index }
            index += 1
        }
        return count
    }

    @inline(__always)
    private static func broadcast(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }

    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
    }

    private static let lessThan = UInt8(ascii: "<")
    private static let greaterThan = UInt8(ascii: ">")
    private static let slash = UInt8(ascii: "/")
    private static let bang = UInt8(ascii: "!")
    private static let question = UInt8(ascii: "?")
    private static let doubleQuote = UInt8(ascii: "\"")
    private static let singleQuote = UInt8(ascii: "'")
    private static let space = UInt8(ascii: " ")
}
