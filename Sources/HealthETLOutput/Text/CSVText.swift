/// RFC 4180 fields: quoted only when they hold a comma, a quote or a line break, quotes doubled.
///
/// A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is run as a formula by
/// spreadsheets (a source named `=HYPERLINK(…)` becomes a live link). By default such a cell is
/// written as OWASP's CSV-injection guidance recommends: quoted, with a leading `'`, so it opens
/// as text. `.raw` writes it as it is, for programs that read the file as data.
public enum CSVText {
    /// How cells that a spreadsheet would run as formulas are written.
    public enum Formulas: Sendable {
        /// A leading `'`, so the cell is text.
        case neutralized
        /// As they are.
        case raw
    }

    public static func appendField(_ text: String, formulas: Formulas, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { field in
            let isFormula = formulas == .neutralized && field.first.map(startsFormula) == true
            let needsQuotes =
                isFormula
                || field.contains {
                    $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n")
                        || $0 == UInt8(ascii: "\r")
                }
            guard needsQuotes else { return bytes.append(contentsOf: field) }
            bytes.append(UInt8(ascii: "\""))
            if isFormula { bytes.append(UInt8(ascii: "'")) }
            for byte in field {
                if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// The characters a spreadsheet reads as the start of a formula.
    static func startsFormula(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "@") || byte == 0x09 || byte == 0x0D
    }

    /// A header or any row of plain fields, ended by CRLF as RFC 4180 writes.
    public static func appendRow(_ fields: [String], to bytes: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendField(field, formulas: .neutralized, to: &bytes)
        }
        appendLineEnd(to: &bytes)
    }

    @inlinable
    public static func appendLineEnd(to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\r"))
        bytes.append(UInt8(ascii: "\n"))
    }
}
