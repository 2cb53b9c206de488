/// Small JSON writers for the few places that emit JSON per record, where `JSONEncoder` is too slow.
public enum JSONText {
    /// A JSON string literal with the escapes RFC 8259 requires.
    public static func quoted(_ text: String) -> String {
        // Most keys and values need no escape at all.
        if !text.utf8.contains(where: needsEscape) {
            return "\"" + text + "\""
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal in UTF-8: the one JSON string escaper, which the
    /// writers that build JSON bytes directly call too. Text without a character to escape (nearly
    /// all of it) is copied in one piece.
    @inlinable
    public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let copied =
            text.utf8.withContiguousStorageIfAvailable { utf8 in
                guard !utf8.contains(where: needsEscape) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            } ?? false
        if !copied { appendEscaped(text, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    @inlinable
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    @usableFromInline
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), backslash:
                bytes.append(backslash)
                bytes.append(byte)
            case UInt8(ascii: "\n"):
                bytes.append(backslash)
                bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"):
                bytes.append(backslash)
                bytes.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"):
                bytes.append(backslash)
                bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                // \u00XX with lowercase hex digits; the high one is 0 or 1.
                let low = byte & 0xF
                bytes.append(backslash)
                bytes.append(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0") + (byte >> 4))
                bytes.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
            default:
                bytes.append(byte)
            }
        }
    }

    /// Metadata as an array of `[key, value]` pairs: keys repeat and their order matters.
    public static func pairs(_ entries: [MetadataEntry]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 8 })
        bytes.append(UInt8(ascii: "["))
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "["))
            appendQuoted(entry.key, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            appendQuoted(entry.value, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension JSONText {
    /// Series points as `[[ms, value], …]`. Into one string reserved for them all: a string per
    /// point, then an array of them joined, made a sample's series cost the writer twice as much.
    public static func points(_ points: [SeriesPoint]) -> String {
        var text = "["
        text.reserveCapacity(2 + 32 * points.count)
        for (index, point) in points.enumerated() {
            text += index == 0 ? "[" : ",["
            text += String(point.instant.millisecondsSinceEpoch)
            text += ","
            text += point.value.description
            text += "]"
        }
        text += "]"
        return text
    }

    /// Strings as a JSON array.
    public static func array(_ strings: [String]) -> String {
        "[" + strings.map(quoted).joined(separator: ",") + "]"
    }
}
