import HealthETLCore

/// A JSON reader that takes its text in chunks of any size and hands tokens on as they complete,
/// so a file of any length passes through in bounded memory: only the token being read is kept,
/// within `JSONLimits`.
///
/// It checks the grammar of RFC 8259 as it goes (structure, escapes, numbers, literals) and
/// reports the first error with its byte offset; tokens before the error have been handed on.
/// Invalid UTF-8 inside a string becomes U+FFFD, and so does a lone surrogate escape.
struct JSONTokenizer {
    private enum Container {
        case object
        case array
    }

    /// What may come next, outside a token.
    private enum Expect {
        case value
        /// Right after `[`.
        case valueOrArrayEnd
        /// Right after `{`.
        case keyOrObjectEnd
        /// After a `,` in an object.
        case key
        case colon
        case commaOrEnd
        case done
    }

    /// The token being read across bytes (and chunks).
    private enum Lexeme {
        case none
        case string(isKey: Bool)
        case escape(isKey: Bool)
        case unicode(isKey: Bool, digits: Int, value: UInt32)
        case number
        case literal(Literal, matched: Int)
    }

    /// `true`, `false` or `null`, being matched byte by byte.
    private enum Literal {
        case `true`, `false`, null

        var word: StaticString {
            switch self {
            case .true: "true"
            case .false: "false"
            case .null: "null"
            }
        }

        var token: JSONToken {
            switch self {
            case .true: .bool(true)
            case .false: .bool(false)
            case .null: .null
            }
        }
    }

    let limits: JSONLimits
    /// Bytes consumed so far: where the next one sits.
    private(set) var offset: Int64 = 0
    private var stack: [Container] = []
    private var expect = Expect.value
    private var lexeme = Lexeme.none
    private var buffer: [UInt8] = []
    /// A `\uD800`–`\uDBFF` escape waiting for its low half.
    private var highSurrogate: UInt32?

    init(limits: JSONLimits = JSONLimits()) {
        self.limits = limits
    }

    /// Reads the next bytes, handing on every token they complete.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, emit: (JSONToken) throws -> Void) throws {
        var index = 0
        while index < bytes.count {
            // Inside a string, the plain bytes up to the next quote, backslash or control
            // character are taken in one run (most of a file's bytes are these).
            if case .string = lexeme, highSurrogate == nil {
                let run = Self.plainStringBytes(in: bytes, from: index)
                if run > 0 {
                    try appendRun(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + run)]))
                    index += run
                    continue
                }
            }
            try step(bytes[index], emit)
            offset += 1
            index += 1
        }
    }

    /// How many bytes from `start` need no more than appending to a string.
    private static func plainStringBytes(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            end += 1
        }
        return end - start
    }

    /// Appends plain string bytes, within the string limit (the error names the first byte past it).
    private mutating func appendRun(_ run: UnsafeRawBufferPointer) throws {
        guard buffer.count + run.count <= limits.stringBytes else {
            offset += Int64(limits.stringBytes - buffer.count)
            throw error(.limit, "a string longer than \(limits.stringBytes) bytes")
        }
        buffer.append(contentsOf: run)
        offset += Int64(run.count)
    }

    mutating func feed(_ bytes: [UInt8], emit: (JSONToken) throws -> Void) throws {
        try bytes.withUnsafeBytes { try feed($0, emit: emit) }
    }

    /// The text has ended: a number at the very end completes; anything else open is truncation.
    mutating func finish(emit: (JSONToken) throws -> Void) throws {
        if case .number = lexeme {
            try endNumber(emit)
        }
        guard case .none = lexeme else { throw error(.truncated, "the text ends inside a string or literal") }
        guard expect == .done else {
            throw error(.truncated, stack.isEmpty ? "the text holds no JSON value" : "the text ends inside a value")
        }
    }

    // MARK: - One byte

    private mutating func step(_ byte: UInt8, _ emit: (JSONToken) throws -> Void) throws {
        switch lexeme {
        case .none:
            try structural(byte, emit)
        case .string(let isKey):
            try stringByte(byte, isKey: isKey, emit)
        case .escape(let isKey):
            try escapeByte(byte, isKey: isKey)
        case .unicode(let isKey, let digits, let value):
            try unicodeByte(byte, isKey: isKey, digits: digits, value: value)
        case .number:
            if Self.isNumberByte(byte) {
                guard buffer.count < limits.numberBytes else {
                    throw error(.limit, "a number longer than \(limits.numberBytes) characters")
                }
                buffer.append(byte)
            } else {
                try endNumber(emit)
                try structural(byte, emit)
            }
        case .literal(let literal, let matched):
            let word = literal.word
            let expected = word.withUTF8Buffer { $0[matched] }
            guard byte == expected else { throw error(.syntax, "\"\(word)\" misspelled") }
            if matched + 1 == word.utf8CodeUnitCount {
                lexeme = .none
                try emit(literal.token)
                valueDone()
            } else {
                lexeme = .literal(literal, matched: matched + 1)
            }
        }
    }

    private mutating func structural(_ byte: UInt8, _ emit: (JSONToken) throws -> Void) throws {
        if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { return }
        switch expect {
        case .value, .valueOrArrayEnd:
            if byte == UInt8(ascii: "]"), expect == .valueOrArrayEnd {
                try close(.array, emit)
            } else {
                try startValue(byte, emit)
            }
        case .keyOrObjectEnd, .key:
            if byte == UInt8(ascii: "\"") {
                buffer.removeAll(keepingCapacity: true)
                lexeme = .string(isKey: true)
            } else if byte == UInt8(ascii: "}"), expect == .keyOrObjectEnd {
                try close(.object, emit)
            } else {
                throw error(.syntax, "expected a member name in quotes, found \(Self.shown(byte))")
            }
        case .colon:
            guard byte == UInt8(ascii: ":") else {
                throw error(.syntax, "expected ':' after a member name, found \(Self.shown(byte))")
            }
            expect = .value
        case .commaOrEnd:
            switch (byte, stack.last) {
            case (UInt8(ascii: ","), .object): expect = .key
            case (UInt8(ascii: ","), .array): expect = .value
            case (UInt8(ascii: "}"), .object): try close(.object, emit)
            case (UInt8(ascii: "]"), .array): try close(.array, emit)
            default: throw error(.syntax, "expected ',' or the container's end, found \(Self.shown(byte))")
            }
        case .done:
            throw error(.syntax, "\(Self.shown(byte)) after the end of the JSON text")
        }
    }

    private mutating func startValue(_ byte: UInt8, _ emit: (JSONToken) throws -> Void) throws {
        switch byte {
        case UInt8(ascii: "{"):
            try open(.object)
            try emit(.objectStart)
            expect = .keyOrObjectEnd
        case UInt8(ascii: "["):
            try open(.array)
            try emit(.arrayStart)
            expect = .valueOrArrayEnd
        case UInt8(ascii: "\""):
            buffer.removeAll(keepingCapacity: true)
            lexeme = .string(isKey: false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            buffer.removeAll(keepingCapacity: true)
            buffer.append(byte)
            lexeme = .number
        case UInt8(ascii: "t"): lexeme = .literal(.true, matched: 1)
        case UInt8(ascii: "f"): lexeme = .literal(.false, matched: 1)
        case UInt8(ascii: "n"): lexeme = .literal(.null, matched: 1)
        default: throw error(.syntax, "expected a value, found \(Self.shown(byte))")
        }
    }

    // MARK: - Strings

    private mutating func stringByte(_ byte: UInt8, isKey: Bool, _ emit: (JSONToken) throws -> Void) throws {
        switch byte {
        case UInt8(ascii: "\""):
            flushSurrogate()
            let text = String(decoding: buffer, as: UTF8.self)
            lexeme = .none
            if isKey {
                try emit(.key(text))
                expect = .colon
            } else {
                try emit(.string(text))
                valueDone()
            }
        case UInt8(ascii: "\\"):
            lexeme = .escape(isKey: isKey)
        case 0..<0x20:
            throw error(.syntax, "a control character (\(Self.shown(byte))) inside a string")
        default:
            flushSurrogate()
            try append(byte)
        }
    }

    private mutating func escapeByte(_ byte: UInt8, isKey: Bool) throws {
        let plain: UInt8
        switch byte {
        case UInt8(ascii: "u"):
            lexeme = .unicode(isKey: isKey, digits: 0, value: 0)
            return
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): plain = byte
        case UInt8(ascii: "b"): plain = 0x08
        case UInt8(ascii: "f"): plain = 0x0C
        case UInt8(ascii: "n"): plain = 0x0A
        case UInt8(ascii: "r"): plain = 0x0D
        case UInt8(ascii: "t"): plain = 0x09
        default: throw error(.syntax, "an unknown escape \\\(Self.shown(byte)) inside a string")
        }
        flushSurrogate()
        try append(plain)
        lexeme = .string(isKey: isKey)
    }

    private mutating func unicodeByte(_ byte: UInt8, isKey: Bool, digits: Int, value: UInt32) throws {
        guard let digit = HexDigits.value(of: byte).map(UInt32.init) else {
            throw error(.syntax, "a \\u escape needs four hex digits")
        }
        let value = value << 4 | digit
        guard digits == 3 else {
            lexeme = .unicode(isKey: isKey, digits: digits + 1, value: value)
            return
        }
        lexeme = .string(isKey: isKey)
        switch value {
        case 0xD800...0xDBFF:
            flushSurrogate()
            highSurrogate = value
        case 0xDC00...0xDFFF:
            if let high = highSurrogate {
                highSurrogate = nil
                try append(scalar: 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
            } else {
                try append(scalar: 0xFFFD)
            }
        default:
            flushSurrogate()
            try append(scalar: value)
        }
    }

    /// A high surrogate not followed by its low half stands for U+FFFD.
    private mutating func flushSurrogate() {
        guard highSurrogate != nil else { return }
        highSurrogate = nil
        buffer.append(contentsOf: [0xEF, 0xBF, 0xBD])
    }

    private mutating func append(_ byte: UInt8) throws {
        guard buffer.count < limits.stringBytes else {
            throw error(.limit, "a string longer than \(limits.stringBytes) bytes")
        }
        buffer.append(byte)
    }

    private mutating func append(scalar: UInt32) throws {
        for byte in String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8 { try append(byte) }
    }

    // MARK: - Numbers and containers

    private mutating func endNumber(_ emit: (JSONToken) throws -> Void) throws {
        lexeme = .none
        guard Self.isNumber(buffer) else {
            throw error(.syntax, "\"\(String(decoding: buffer, as: UTF8.self))\" is not a JSON number")
        }
        try emit(.number(String(decoding: buffer, as: UTF8.self)))
        valueDone()
    }

    private mutating func open(_ container: Container) throws {
        guard stack.count < limits.depth else { throw error(.limit, "nesting deeper than \(limits.depth)") }
        stack.append(container)
    }

    private mutating func close(_ container: Container, _ emit: (JSONToken) throws -> Void) throws {
        stack.removeLast()
        try emit(container == .object ? .objectEnd : .arrayEnd)
        valueDone()
    }

    private mutating func valueDone() {
        expect = stack.isEmpty ? .done : .commaOrEnd
    }

    private func error(_ kind: JSONStreamError.Kind, _ message: String) -> JSONStreamError {
        JSONStreamError(kind: kind, byteOffset: offset, message: message)
    }

    // MARK: - Bytes

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isNumber(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    /// A byte as an error message shows it: the character, or its code when it is not printable.
    private static func shown(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}
