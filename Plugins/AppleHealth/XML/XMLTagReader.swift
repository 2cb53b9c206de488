/// Reads a start tag (`<Name a="v" …>`) or an empty element's tag (`<Name a="v" …/>`) as libxml2
/// would deliver it, without libxml2, for the tags that need nothing more: every Apple record's
/// is one, and libxml2 reads a value with a reference (every record's `device` has `&lt;`) one
/// character at a time.
///
/// It takes only what it can read exactly: names of ASCII letters, digits, `_`, `-` and `.`
/// without a prefix; values of valid UTF-8 XML characters and references to the five predefined
/// entities or to valid characters, short enough for `XMLReferenceDecoder`; whitespace between
/// attributes. Anything else — a duplicate attribute, a namespace declaration, a tab, line feed or
/// carriage return in a value (libxml2 turns those into spaces), a carriage return between
/// attributes without a line feed after it, `<` in a value, an unknown entity, a malformed tag —
/// gives nil, and the tag goes to libxml2, which reads it or reports the error.
enum XMLTagReader {
    /// What `read` found in a tag it took.
    struct Tag {
        var name: UnsafeBufferPointer<UInt8>
        /// The attributes written to the spans.
        var attributes: Int
        var isEmpty: Bool
        /// Whether whitespace between attributes holds a line feed or carriage return (a value
        /// holding one is left to libxml2).
        var hasLineBreak: Bool
        /// The UTF-8 continuation bytes (`10xxxxxx`) in the values (names are ASCII): the tag's
        /// bytes less these are its characters.
        var continuationBytes: Int
    }

    /// The element's name, with its attributes written to `spans` (values still holding their
    /// references, each noted), and what else the tag holds; or nil. More attributes than
    /// `spans` holds also give nil.
    static func read(
        _ tag: UnsafeBufferPointer<UInt8>, into spans: UnsafeMutableBufferPointer<XMLAttributes.Span>
    ) -> Tag? {
        guard tag.count >= 3, tag[0] == XMLByteClass.lessThan, let elementNameEnd = nameEnd(tag, from: 1) else {
            return nil
        }
        var index = elementNameEnd
        var count = 0
        var hasLineBreak = false
        var continuationBytes = 0
        /// False at a carriage return without a line feed after it: libxml2 counts no line
        /// there, and its errors' positions are left to it.
        func skipWhitespace() -> Bool {
            while index < tag.count, XMLByteClass.isWhitespace(tag[index]) {
                if tag[index] == XMLByteClass.carriageReturn {
                    guard index + 1 < tag.count, tag[index + 1] == XMLByteClass.lineFeed else { return false }
                    hasLineBreak = true
                } else if tag[index] == XMLByteClass.lineFeed {
                    hasLineBreak = true
                }
                index += 1
            }
            return true
        }
        func ending(isEmpty: Bool) -> Tag {
            Tag(
                name: UnsafeBufferPointer(rebasing: tag[1..<elementNameEnd]), attributes: count, isEmpty: isEmpty,
                hasLineBreak: hasLineBreak, continuationBytes: continuationBytes)
        }
        while true {
            let whitespaceStart = index
            guard skipWhitespace(), index < tag.count else { return nil }
            // `/>` or `>` must end the tag: the scanner found this tag's end there.
            if tag[index] == XMLByteClass.slash {
                guard index + 2 == tag.count, tag[index + 1] == XMLByteClass.greaterThan else { return nil }
                return ending(isEmpty: true)
            }
            if tag[index] == XMLByteClass.greaterThan {
                guard index + 1 == tag.count else { return nil }
                return ending(isEmpty: false)
            }
            guard index > whitespaceStart, count < spans.count, let attributeNameEnd = nameEnd(tag, from: index)
            else { return nil }
            let name = UnsafeBufferPointer(rebasing: tag[index..<attributeNameEnd])
            guard !XMLBytes(name).isNamespaceDeclaration,
                !spans[0..<count].contains(where: { $0.name.count == name.count && $0.name.elementsEqual(name) })
            else { return nil }
            index = attributeNameEnd
            guard skipWhitespace(), index < tag.count, tag[index] == XMLByteClass.equals else { return nil }
            index += 1
            var hasReference = false
            guard skipWhitespace(), index < tag.count,
                tag[index] == XMLByteClass.doubleQuote || tag[index] == XMLByteClass.singleQuote,
                let valueEnd = valueEnd(
                    tag, from: index + 1, quote: tag[index], hasReference: &hasReference,
                    continuationBytes: &continuationBytes)
            else { return nil }
            spans[count] = XMLAttributes.Span(
                name: name, value: UnsafeBufferPointer(rebasing: tag[(index + 1)..<valueEnd]),
                hasReference: hasReference)
            count += 1
            index = valueEnd + 1
        }
    }

    /// Where a name starting at `start` ends (at whitespace, `=`, `/` or `>`), or nil for a name it does not take.
    private static func nameEnd(_ tag: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < tag.count, isNameStart(tag[start]) else { return nil }
        var index = start + 1
        while index < tag.count, isNameStart(tag[index]) || isDigitDashOrDot(tag[index]) { index += 1 }
        guard index < tag.count else { return nil }
        let next = tag[index]
        guard
            XMLByteClass.isWhitespace(next) || next == XMLByteClass.equals || next == XMLByteClass.slash
                || next == XMLByteClass.greaterThan
        else {
            return nil
        }
        return index
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_")
    }

    private static func isDigitDashOrDot(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// The index of the quote that closes a value starting at `start`, or nil when the value holds
    /// anything this reader leaves to libxml2; notes a reference in it, and counts its UTF-8
    /// continuation bytes.
    private static func valueEnd(
        _ tag: UnsafeBufferPointer<UInt8>, from start: Int, quote: UInt8, hasReference: inout Bool,
        continuationBytes: inout Int
    ) -> Int? {
        var index = start
        while index < tag.count {
            // Eight bytes at a time up to the first that needs a look.
            if index + 8 <= tag.count, let base = tag.baseAddress {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let flags = needingALook(word)
                guard flags != 0 else {
                    index += 8
                    continue
                }
                index += flags.trailingZeroBitCount / 8
            }
            let byte = tag[index]
            // Printable ASCII other than the quotes, `&` and `<` needs no look (most of a value).
            if byte &- 0x20 < 0x5F, !isSpecial(byte) {
                index += 1
                continue
            }
            if byte == quote { return index }
            if byte < 0x80 {
                // Controls (tab, line feed and carriage return are normalized by libxml2) and `<`.
                guard byte >= 0x20, byte != XMLByteClass.lessThan else { return nil }
                if byte == XMLByteClass.ampersand {
                    guard let length = referenceLength(tag, at: index) else { return nil }
                    hasReference = true
                    index += length
                } else {
                    index += 1
                }
            } else {
                guard let length = characterLength(tag, at: index) else { return nil }
                continuationBytes += length - 1
                index += length
            }
        }
        return nil
    }

    /// The high bit set of each byte of `word` that is not printable ASCII or is a quote, `&` or
    /// `<` (and perhaps of bytes above one, by a borrow: the lowest flag is always right).
    @inline(__always)
    private static func needingALook(_ word: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- XMLByteClass.broadcast(0x20)) & ~word & high
        return word & high | control | XMLByteClass.zeroBytes(word ^ XMLByteClass.broadcast(XMLByteClass.doubleQuote))
            | XMLByteClass.zeroBytes(word ^ XMLByteClass.broadcast(XMLByteClass.singleQuote))
            | XMLByteClass.zeroBytes(word ^ XMLByteClass.broadcast(XMLByteClass.ampersand))
            | XMLByteClass.zeroBytes(word ^ XMLByteClass.broadcast(XMLByteClass.lessThan))
    }

    @inline(__always)
    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == XMLByteClass.doubleQuote || byte == XMLByteClass.singleQuote || byte == XMLByteClass.ampersand
            || byte == XMLByteClass.lessThan
    }

    /// The length of a predefined entity or a character reference to a valid XML character at
    /// `start` (an `&`), as `XMLReferenceDecoder` reads it (at most 12 bytes); nil otherwise.
    private static func referenceLength(_ tag: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let limit = min(tag.count, start + 12)
        var end = start + 1
        while end < limit, tag[end] != UInt8(ascii: ";") { end += 1 }
        guard end < limit, end > start + 1 else { return nil }
        let body = XMLBytes(UnsafeBufferPointer(rebasing: tag[(start + 1)..<end]))
        if body == "lt" || body == "gt" || body == "amp" || body == "quot" || body == "apos" { return end - start + 1 }
        guard body.bytes[0] == UInt8(ascii: "#") else { return nil }
        var digits = body.bytes.dropFirst()
        let hexadecimal = digits.first == UInt8(ascii: "x")
        if hexadecimal { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            if byte &- UInt8(ascii: "0") < 10 {
                digit = UInt32(byte &- UInt8(ascii: "0"))
            } else if hexadecimal, (byte | 0x20) &- UInt8(ascii: "a") < 6 {
                digit = UInt32((byte | 0x20) &- UInt8(ascii: "a")) + 10
            } else {
                return nil
            }
            value = value * (hexadecimal ? 16 : 10) + digit
            guard value <= 0x10FFFF else { return nil }
        }
        return isXMLCharacter(value) ? end - start + 1 : nil
    }

    /// The length of the UTF-8 sequence of one valid XML character at `start`, or nil.
    private static func characterLength(_ tag: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let lead = tag[start]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, value) = (4, UInt32(lead & 0x07))
        default: return nil
        }
        guard start + length <= tag.count else { return nil }
        for offset in 1..<length {
            let byte = tag[start + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        // No overlong form: each length's smallest value.
        let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= smallest, isXMLCharacter(value) else { return nil }
        return length
    }

    /// XML 1.0's `Char`: tab, line feed, carriage return, and the scalars from U+0020 but the
    /// surrogates, U+FFFE and U+FFFF.
    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

extension XMLBytes {
    /// `xmlns`, which libxml2 takes as a namespace declaration rather than an attribute.
    fileprivate var isNamespaceDeclaration: Bool { self == "xmlns" }
}
