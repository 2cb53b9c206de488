import HealthETLSQLite
import HealthETLTestSupport
import Testing

/// `RepeatedText` reads what `SQLiteStatement.text` reads, row after row, whatever repeats.
@Suite struct RepeatedTextTests {
    let directory = TemporaryDirectory()

    @Test func everyRowReadsAsTheColumnsOwnText() throws {
        let database = DatabaseDirectory(path: directory.child("texts"))
        try database.prepare()
        let connection = try SQLiteConnection(path: database.databasePath)
        try connection.execute("CREATE TABLE t(n INTEGER PRIMARY KEY, a TEXT, b TEXT)")
        let insert = try connection.prepare("INSERT INTO t(n, a, b) VALUES (?1, ?2, ?3)")
        // Runs, changes, NULL, the empty string, text outside ASCII, a prefix of the value before,
        // and bytes that are not UTF-8 (read with replacement characters, every time alike).
        let values: [SQLiteValue] = [
            .text("Simon’s Apple Watch"), .text("Simon’s Apple Watch"), .text("iPhone"), .null, .null, .text(""),
            .text(""), .text("iPhone"), .text("iPhon"), .blob([0x69, 0xFF, 0x50]), .blob([0x69, 0xFF, 0x50]),
            .text("Simon’s Apple Watch"),
        ]
        for (row, value) in values.enumerated() {
            _ = try insert.run(.integer(Int64(row)), value, values[(row * 7) % values.count])
        }
        try connection.execute("UPDATE t SET a = CAST(a AS TEXT) WHERE typeof(a) = 'blob'")
        try connection.execute("UPDATE t SET b = CAST(b AS TEXT) WHERE typeof(b) = 'blob'")
        let select = try connection.prepare("SELECT a, b FROM t ORDER BY n")
        let rows = try RepeatedText.rows(of: select) { row, texts in
            [texts.text(0, of: row), row.text(0), texts.text(1, of: row), row.text(1)]
        }
        #expect(rows.count == values.count)
        for row in rows {
            #expect(row[0] == row[1])
            #expect(row[2] == row[3])
        }
    }
}
