/// Small JSON writers for the few places that emit JSON per record, where `JSONEncoder` is too slow.
public enum JSONText {
    /// A JSON string literal with the escapes RFC 8259 requires.
    public static func quoted(_ text: String) -> String {
        // Most keys and values need no escape at all.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Metadata as an array of `[key, value]` pairs: keys repeat and their order matters.
    public static func pairs(_ entries: [MetadataEntry]) -> String {
        "[" + entries.map { "[\(quoted($0.key)),\(quoted($0.value))]" }.joined(separator: ",") + "]"
    }
}

extension JSONText {
    /// Series points as `[[ms, value], …]`.
    public static func points(_ points: [SeriesPoint]) -> String {
        "[" + points.map { "[\($0.instant.millisecondsSinceEpoch),\($0.value)]" }.joined(separator: ",") + "]"
    }

    /// Strings as a JSON array.
    public static func array(_ strings: [String]) -> String {
        "[" + strings.map(quoted).joined(separator: ",") + "]"
    }
}
