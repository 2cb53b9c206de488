import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// A small Health Connect database the `health-connect-values` target starts every input from:
/// its bytes, and the tables that hold rows with the columns an update may set.
struct HealthConnectTemplate {
    struct Table {
        var name: String
        /// Every column but generated ones (SQLite computes those), then the row id.
        var columns: [String]
        var rows: Int
    }

    var bytes: [UInt8]
    var tables: [Table]

    /// The seed databases of the `health-connect` target, read from the working directory
    /// (`Fuzz/run.sh` runs from the repository's root) or from `$FUZZ_TEMPLATES`.
    static func loadAll() -> [HealthConnectTemplate] {
        let directory = getenv("FUZZ_TEMPLATES").map { String(cString: $0) } ?? "Fuzz/health-connect/corpus"
        guard let listing = opendir(directory) else {
            fatalError("cannot read the template databases in \(directory): run from the repository's root")
        }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".db") { names.append(name) }
        }
        let templates = names.sorted().map { load("\(directory)/\($0)") }
        precondition(!templates.isEmpty, "no template databases (*.db) in \(directory)")
        return templates
    }

    private static func load(_ path: String) -> HealthConnectTemplate {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let database else {
            fatalError("cannot open the template database \(path)")
        }
        defer { sqlite3_close(database) }
        var tables: [Table] = []
        for name in strings(database, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let rows = Int(strings(database, "SELECT count(*) FROM \(quoted)").first ?? "0") ?? 0
            guard rows > 0, !name.hasPrefix("sqlite_") else { continue }
            let columns = strings(database, "SELECT name FROM pragma_table_info('\(name)')")
            tables.append(Table(name: quoted, columns: columns.map { "\"\($0)\"" } + ["rowid"], rows: rows))
        }
        guard let file = fopen(path, "rb") else { fatalError("cannot read \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while case let count = fread(&buffer, 1, buffer.count, file), count > 0 { bytes += buffer[..<count] }
        return HealthConnectTemplate(bytes: bytes, tables: tables)
    }

    /// The first column of every row `sql` gives, as text.
    private static func strings(_ database: OpaquePointer, _ sql: String) -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return [] }
        defer { sqlite3_finalize(statement) }
        var result: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            result.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
        return result
    }
}
