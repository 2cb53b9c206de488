import HealthETLCore

/// Text for the report's HTML and SVG: escaping, and numbers as people and drawings need them.
public enum HTMLText {
    /// Escapes the five characters HTML gives meaning to, in text and attribute values.
    public static func append(escaping text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): ByteText.append("&amp;", to: &bytes)
            case UInt8(ascii: "<"): ByteText.append("&lt;", to: &bytes)
            case UInt8(ascii: ">"): ByteText.append("&gt;", to: &bytes)
            case UInt8(ascii: "\""): ByteText.append("&quot;", to: &bytes)
            case UInt8(ascii: "'"): ByteText.append("&#39;", to: &bytes)
            default: bytes.append(byte)
            }
        }
    }

    public static func escaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        append(escaping: text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A coordinate, to a tenth of a unit (drawings need no more, and the file stays small).
    public static func appendCoordinate(_ value: Double, to bytes: inout [UInt8]) {
        ByteText.append((value * 10).rounded() / 10, to: &bytes)
    }

    /// A figure for people: grouped thousands (`12,345`) and `decimals` places.
    public static func figure(_ value: Double, decimals: Int = 0) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        // Beyond what Int64 holds (a source's absurd workout duration): as Swift writes it.
        guard let scaled = Int64(exactly: (abs(value) * scale).rounded()) else { return String(value) }
        let whole = scaled / Int64(scale)
        var digits = String(whole)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        var text = (value < 0 && scaled != 0 ? "-" : "") + digits + grouped
        if decimals > 0 {
            let fraction = String(scaled % Int64(scale))
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }

    /// A duration as hours and minutes, `7 h 05 min`.
    public static func hours(_ seconds: Double) -> String {
        guard let minutes = Int(exactly: (seconds / 60).rounded()) else { return "–" }
        let rest = minutes % 60
        return "\(minutes / 60) h \(rest < 10 ? "0" : "")\(rest) min"
    }
}
