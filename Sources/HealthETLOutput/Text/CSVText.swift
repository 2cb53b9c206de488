/// RFC 4180 fields: quoted only when they hold a comma, a quote or a line break, quotes doubled.
public enum CSVText {
    public static func appendField(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { field in
            let needsQuotes = field.contains {
                $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n")
                    || $0 == UInt8(ascii: "\r")
            }
            guard needsQuotes else { return bytes.append(contentsOf: field) }
            bytes.append(UInt8(ascii: "\""))
            for byte in field {
                if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// A header or any row of plain fields, ended by CRLF as RFC 4180 writes.
    public static func appendRow(_ fields: [String], to bytes: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendField(field, to: &bytes)
        }
        appendLineEnd(to: &bytes)
    }

    @inlinable
    public static func appendLineEnd(to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\r"))
        bytes.append(UInt8(ascii: "\n"))
    }
}
