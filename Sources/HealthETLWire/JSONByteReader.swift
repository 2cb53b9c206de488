import Foundation
import HealthETLCore

/// A forward reader over JSON bytes for the shapes the wire format uses: objects, arrays,
/// strings, numbers, `true`, `false`, `null`.
///
/// It never guesses. Anything it does not read exactly as the JSON grammar and `JSONDecoder`
/// would (an escaped surrogate, a number out of range, invalid UTF-8) makes it give up by
/// returning nil, and the caller hands the body to `JSONDecoder`, which decides and explains.
struct JSONByteReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset = 0
    /// The last string read of each kind of field whose values repeat (metric, source, …): the
    /// same bytes again reuse the `String` instead of allocating a new one.
    private var remembered: [Remembered] = []
    /// Whether every byte so far is as `WireBatch.jsonBytes()` writes it: no whitespace, no
    /// escape, no `null`, numbers in Swift's shortest form. Cleared conservatively (an escape
    /// the writer would also write still clears it): a body judged canonical must be byte for
    /// byte the canonical JSON of what it decodes to, so its digest can be taken as it came.
    private(set) var isCanonical = true

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D:
                offset += 1
                isCanonical = false
            default: return
            }
        }
    }

    /// Notes something the canonical writer would have written otherwise (a key out of order).
    mutating func noteNotCanonical() {
        isCanonical = false
    }

    /// Consumes `byte` after any whitespace; false (nothing consumed) if another byte comes first.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    /// Consumes `null` after any whitespace, if it comes next.
    mutating func takeNull() -> Bool {
        skipWhitespace()
        guard takeLiteral("null") else { return false }
        // The writer leaves an absent field out.
        isCanonical = false
        return true
    }

    mutating func bool() -> Bool? {
        skipWhitespace()
        if takeLiteral("true") { return true }
        if takeLiteral("false") { return false }
        return nil
    }

    /// An object key made only of printable ASCII without escapes, as its bytes; nil otherwise
    /// (an escaped key could spell a known one and is left to the reference decoder).
    mutating func key() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let key = UnsafeBufferPointer(rebasing: bytes[start..<offset])
                offset += 1
                guard take(UInt8(ascii: ":")) else { return nil }
                return key
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            offset += 1
        }
        return nil
    }

    /// A string value. `slot` names a field whose values repeat from one item to the next.
    mutating func string(remembering slot: Int? = nil) -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = offset
        var plain = true
        var highBits: UInt8 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { return nil }
            highBits |= byte
            if byte == UInt8(ascii: "\\") {
                plain = false
                offset += 2
            } else {
                offset += 1
            }
        }
        guard offset < bytes.count else { return nil }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<offset])
        offset += 1
        guard plain else {
            isCanonical = false
            return Self.unescape(raw)
        }
        if let slot { return rememberedString(raw, slot: slot, isASCII: highBits < 0x80) }
        return Self.text(raw, isASCII: highBits < 0x80)
    }

    /// Bytes without escapes as a `String`, nil when they are not UTF-8. ASCII needs no
    /// validation, and the generic validating initializer costs more than reading the bytes.
    private static func text(_ raw: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        isASCII ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
    }

    /// An integer written as JSON digits (no fraction or exponent), within ±10^18.
    mutating func integer() -> Int? {
        skipWhitespace()
        let negative = offset < bytes.count && bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        let start = offset
        var value = 0
        while offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10 {
            value = value &* 10 &+ Int(bytes[offset] &- UInt8(ascii: "0"))
            offset += 1
        }
        let digits = offset - start
        guard digits > 0, digits <= 18, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        guard offset == bytes.count || !Self.continuesNumber(bytes[offset]) else { return nil }
        if negative, value == 0 { isCanonical = false }
        return negative ? -value : value
    }

    /// A number as JSON writes it, read with correct rounding; nil if it is not finite as a double.
    mutating func double() -> Double? {
        skipWhitespace()
        let start = offset
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard let integerDigits = digits(), integerDigits == 1 || bytes[offset - integerDigits] != UInt8(ascii: "0")
        else { return nil }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() != nil else { return nil }
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            guard digits() != nil else { return nil }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<offset])
        guard text.count <= 64, !Self.isRefusedByFoundation(text),
            let value = Double(Substring(decoding: text, as: UTF8.self)), value.isFinite
        else { return nil }
        // A nonzero number too small for a double (1e-807) is refused, as JSONDecoder refuses it,
        // rather than read as 0.
        if value == 0, Self.hasNonzeroMantissa(text) { return nil }
        if isCanonical { isCanonical = Self.isShortestForm(text, of: value) }
        return value
    }

    /// Whether `text` is `0e1` to `0e9` (or `0E…`): valid JSON, yet Foundation's `JSONDecoder`
    /// refuses exactly these (not `0e0`, `0e10`, `-0e1` or `0e+1`), so they are left to it (a
    /// fuzzer's find).
    private static func isRefusedByFoundation(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.count == 3 && text[0] == UInt8(ascii: "0") && text[1] | 0x20 == UInt8(ascii: "e")
            && text[2] &- UInt8(ascii: "1") < 9
    }

    /// Whether a digit before the exponent is not 0.
    private static func hasNonzeroMantissa(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text {
            if byte | 0x20 == UInt8(ascii: "e") { return false }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return true }
        }
        return false
    }

    /// Whether `text` is the number as the writer spells it (Swift's shortest round-trip form).
    private static func isShortestForm(_ text: UnsafeBufferPointer<UInt8>, of value: Double) -> Bool {
        var written = value.description
        return written.withUTF8 {
            $0.count == text.count && memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0
        }
    }

    // MARK: - Pieces

    private mutating func digits() -> Int? {
        let start = offset
        while offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10 { offset += 1 }
        return offset > start ? offset - start : nil
    }

    private static func continuesNumber(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") || byte &- UInt8(ascii: "0") < 10
    }

    private mutating func takeLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - offset >= count else { return false }
        for index in 0..<count where bytes[offset + index] != literal.utf8Start[index] { return false }
        offset += count
        return true
    }

    private mutating func rememberedString(_ raw: UnsafeBufferPointer<UInt8>, slot: Int, isASCII: Bool) -> String? {
        while remembered.count <= slot { remembered.append(Remembered()) }
        if let text = remembered[slot].text, remembered[slot].holds(raw) { return text }
        guard let text = Self.text(raw, isASCII: isASCII) else { return nil }
        remembered[slot] = Remembered(bytes: Array(raw), text: text)
        return text
    }

    /// The text of a string with escapes. A `\u` escape of a surrogate gives up: lone surrogates
    /// and how a decoder pairs them are the reference decoder's to judge.
    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            guard index + 1 < raw.count else { return nil }
            switch raw[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(raw[index + 1])
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard index + 6 <= raw.count, let unit = hexQuad(raw, at: index + 2), !(0xD800...0xDFFF).contains(unit),
                    let scalar = Unicode.Scalar(unit)
                else { return nil }
                out.append(contentsOf: String(Character(scalar)).utf8)
                index += 6
                continue
            default: return nil
            }
            index += 2
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexQuad(_ raw: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
        var value: UInt32 = 0
        for byte in raw[start..<start + 4] {
            guard let digit = HexDigits.value(of: byte) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// One remembered string value and the bytes it was read from.
    private struct Remembered {
        var bytes: [UInt8] = []
        var text: String?

        func holds(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count == raw.count else { return false }
            guard let other = raw.baseAddress, !raw.isEmpty else { return true }
            return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, other, raw.count) == 0 }
        }
    }
}
