import HealthETLCore

/// Text columns read row after row, where a column often holds what it held in the row before
/// (a sample's metric, source and device): a repeated value is the string read before, not a
/// new one. Reading a run of rows then allocates one string per change of value, and the strings
/// share storage, which also makes comparing them cheap.
package struct RepeatedText {
    private var last: [String?] = []

    package init() {}

    /// Every row of a bound statement, each read by `read` with one `RepeatedText` for them all.
    package static func rows<Row>(
        of statement: SQLiteStatement, _ read: (SQLiteStatement, inout RepeatedText) throws -> Row
    ) throws -> [Row] {
        var texts = RepeatedText()
        var rows: [Row] = []
        while try statement.step() { rows.append(try read(statement, &texts)) }
        return rows
    }

    /// Column `column` of the row `statement` stands on; nil for NULL.
    package mutating func text(_ column: Int32, of statement: SQLiteStatement) -> String? {
        let slot = Int(column)
        if slot >= last.count { last.append(contentsOf: repeatElement(nil, count: slot + 1 - last.count)) }
        guard let bytes = statement.textBytes(column) else { return nil }
        // A string that is not valid UTF-8's decoding of the bytes (replacement characters) differs
        // in bytes, so it is read again.
        if let previous = last[slot], ExactText.sameBytes(previous, bytes) { return previous }
        let text = String(decoding: bytes, as: UTF8.self)
        last[slot] = text
        return text
    }
}
