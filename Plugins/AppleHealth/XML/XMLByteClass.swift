/// The bytes markup is made of, and the tests and searches `XMLByteFilter` and `XMLTagScanner` run
/// over every byte of the body. The searches go eight bytes at a time; everything here is inlined
/// into the loops that call it.
enum XMLByteClass {
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
    static let slash = UInt8(ascii: "/")
    static let bang = UInt8(ascii: "!")
    static let question = UInt8(ascii: "?")
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")
    static let ampersand = UInt8(ascii: "&")
    static let semicolon = UInt8(ascii: ";")
    static let equals = UInt8(ascii: "=")
    static let dash = UInt8(ascii: "-")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let space = UInt8(ascii: " ")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    /// The index of the first byte from `start` that is `needle` or `other`, or `count`. Eight
    /// bytes at a time: a word with neither is passed whole, and in one with either the flags say
    /// where.
    @inline(__always)
    static func find(
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
    static func nameEnd(_ bytes: UnsafeMutablePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
        while index < count {
            let byte = bytes[index]
            if byte <= space || byte == equals || byte == slash || byte == greaterThan { return index }
            index += 1
        }
        return count
    }

    @inline(__always)
    static func broadcast(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }

    /// The high bit of each zero byte of `word` set (and maybe of a byte above one, by a borrow:
    /// the lowest flag is always a zero byte's).
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == lineFeed || byte == 0x09 || byte == 0x0D
    }

    /// Whether `byte` can start an attribute's name (anything else in a start tag is markup or malformed).
    @inline(__always)
    static func startsName(_ byte: UInt8) -> Bool {
        byte != greaterThan && byte != slash && byte != doubleQuote && byte != singleQuote && byte != equals
    }

    @inline(__always)
    static func isContinuationByte(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// Bit n set: byte n is a control character XML 1.0 forbids (all below 0x20 but tab, LF, CR).
    private static let illegalControlMask: UInt32 = ~(1 << 0x09 | 1 << 0x0A | 1 << 0x0D)

    /// Whether `byte` is a control character XML forbids. Callers test `byte < 0x20` first, which
    /// settles it for almost every byte.
    @inline(__always)
    static func isIllegalControl(_ byte: UInt8) -> Bool {
        illegalControlMask & (1 << UInt32(byte)) != 0
    }

    /// The bytes of `word` packed big-endian, as `XMLDoctypeSkipper` packs the words of a DOCTYPE's header.
    static func packed(_ word: String) -> UInt64 {
        word.utf8.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
