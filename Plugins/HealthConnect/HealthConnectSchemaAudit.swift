import HealthETLSQLite

/// The tables whose schema would make SQLite run the file's own SQL while we check or read them,
/// found from the schema alone before any row is checked or read, so that none of it runs.
///
/// A generated column is computed on every read of it and by SQLite's check; an index on an
/// expression or on a generated column, and a partial index's WHERE clause, are computed by the
/// check for every row; a virtual table runs its module's code. A hostile file puts a 400 MB
/// `printf` there. Android writes none of these except the local-time columns of schema 10 on
/// (`local_date_time = time + 1000 * zone_offset` and the start and end ones of a span), which
/// are kept when SQLite compiles them exactly as it compiles Android's expression. A refused
/// table is neither checked nor read, nor is a table read through it (series points, stages).
/// (Views and triggers never run on this read-only, query-only connection, and SQLite leaves
/// CHECK constraints out of a read-only database's schema.)
struct HealthConnectSchemaAudit {
    /// Every table of the schema, SQLite's own (`sqlite_sequence`, `sqlite_stat1`) included: a
    /// hand-made file can name a table of its own so too.
    let tables: [String]
    /// Table → why it is refused, in words for the import report.
    let refused: [String: String]

    /// Android's generated columns and their expressions (`InstantRecordHelper` and
    /// `IntervalRecordHelper`, `LOCAL_DATE_TIME_EXPRESSION` and its start and end siblings).
    static let androidGeneratedColumns = [
        "local_date_time": "time + 1000 * zone_offset",
        "local_date_time_start_time": "start_time + 1000 * start_zone_offset",
        "local_date_time_end_time": "end_time + 1000 * end_zone_offset",
    ]

    init(connection: SQLiteConnection) throws {
        var tables: [(name: String, sql: String)] = []
        let list = try connection.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        while try list.step() { tables.append((list.text(0) ?? "", list.text(1) ?? "")) }
        var refused: [String: String] = [:]
        for table in tables {
            refused[table.name] = try Self.reasonToRefuse(table.name, sql: table.sql, connection)
        }
        // A child table is read joined to its parent, so it goes with it.
        let parents = try connection.prepare(
            "SELECT \"table\" FROM pragma_foreign_key_list(?1) WHERE \"from\" = 'parent_key'")
        for table in tables where refused[table.name] == nil {
            parents.reset()
            try parents.bind(1, table.name)
            if try parents.step(), let parent = parents.text(0), refused[parent] != nil {
                refused[table.name] = "its parent table \(parent) is refused"
            }
        }
        self.tables = tables.map(\.name)
        self.refused = refused
    }

    private static func reasonToRefuse(_ table: String, sql: String, _ connection: SQLiteConnection) throws
        -> String?
    {
        if sql.drop(while: \.isWhitespace).prefix(20).uppercased().hasPrefix("CREATE VIRTUAL") {
            return "a virtual table: reading it runs its module's code"
        }
        // SQLite's check takes a name that starts like a number for the number of findings.
        if let first = table.drop(while: { $0 == "+" || $0 == "-" }).first, first.isASCII, first.isNumber {
            return "its name reads as a number"
        }
        var generated: [Int64: String] = [:]
        let columns = try connection.prepare("SELECT cid, name, hidden FROM pragma_table_xinfo(?1)")
        try columns.bind(1, table)
        while try columns.step() {
            // hidden: 2 for a virtual generated column, 3 for a stored one.
            let hidden = columns.int64(2)
            guard hidden >= 2 else { continue }
            let name = columns.text(1) ?? ""
            generated[columns.int64(0)] = name
            guard hidden == 2, let expression = androidGeneratedColumns[name],
                try compiledAlike(column: name, expression: expression, in: table, connection)
            else {
                return "column \(name) is computed by the file's own SQL (a generated column)"
            }
        }
        let indexes = try connection.prepare("SELECT name, partial FROM pragma_index_list(?1)")
        try indexes.bind(1, table)
        while try indexes.step() {
            let index = indexes.text(0) ?? ""
            if indexes.int64(1) != 0 { return "index \(index) is partial (its WHERE clause is the file's own SQL)" }
            let keys = try connection.prepare("SELECT cid FROM pragma_index_xinfo(?1) WHERE key = 1")
            try keys.bind(1, index)
            while try keys.step() {
                // cid: -2 for an expression, -1 for the row id.
                let cid = keys.int64(0)
                if cid == -2 { return "index \(index) is on an expression (the file's own SQL)" }
                if let column = generated[cid] { return "index \(index) is on the generated column \(column)" }
            }
        }
        return nil
    }

    /// Whether SQLite compiles reading `column` as it compiles `expression` over the same table:
    /// the same columns, operators and constants in the same order (the generated column's own
    /// null-row check and affinity aside). Only compiled (`EXPLAIN`), never run.
    private static func compiledAlike(
        column: String, expression: String, in table: String, _ connection: SQLiteConnection
    ) throws -> Bool {
        let from = " FROM " + identifier(table) + " NOT INDEXED"
        do {
            let read = try program("SELECT " + identifier(column) + from, connection)
            return try read == program("SELECT " + expression + from, connection)
        } catch is SQLiteError {
            // An expression SQLite will not compile here (an unknown or unsafe function) is not Android's.
            return false
        }
    }

    /// A name as an SQL identifier, whatever it holds.
    private static func identifier(_ name: String) -> String {
        "\"" + String(name.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
    }

    /// The steps of a statement's program that compute its value.
    private static func program(_ sql: String, _ connection: SQLiteConnection) throws -> [String] {
        let explain = try connection.prepare("EXPLAIN " + sql)
        var steps: [String] = []
        // EXPLAIN's columns: addr, opcode, p1, p2, p3, p4, p5, comment.
        while try explain.step() {
            let opcode = explain.text(1) ?? ""
            switch opcode {
            case "Init", "Goto", "Halt", "Transaction", "TableLock", "OpenRead", "Rewind", "Next", "ResultRow",
                "IfNullRow", "Affinity", "ColumnsUsed":
                continue
            case "Column": steps.append("Column \(explain.int64(3))")
            case "Integer": steps.append("Integer \(explain.int64(2))")
            default: steps.append(opcode + " " + (explain.text(5) ?? ""))
            }
        }
        return steps
    }
}
