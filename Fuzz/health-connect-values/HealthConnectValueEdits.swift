import CSQLite

/// Reads a fuzz input as edits to a Health Connect database: each sets one column of one row to a
/// value the input chooses, from the values that trip arithmetic (the ends of `Int64`, NaN,
/// infinities) to any bytes as text or blob, or moves a row to another row id. Mutating values
/// instead of file bytes keeps the database sound, so the reader, not the integrity check, meets them.
struct HealthConnectValueEdits {
    /// Integers that sit on the edges of what the reader's arithmetic takes.
    static let integers: [Int64] = [
        .max, .min, .max - 1, .min + 1, 0, -1, 1, 1 << 53, -(1 << 53), 1 << 62, -(1 << 62),
        .max / 1000, .min / 1000, .max / 1000 + 1, 253_402_300_800_000, -62_135_596_800_000,
        86_400_000, -86_400_000, Int64(Int32.max), Int64(Int32.min), 64_800, -64_800, 1_733_032_800_000,
    ]
    static let doubles: [Double] = [
        .nan, .infinity, -.infinity, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .leastNonzeroMagnitude, 9.223_372_036_854_776e18, -9.223_372_036_854_776e18, 1e-300,
    ]
    /// SQLITE_TRANSIENT, which the C header spells as a cast Swift does not import.
    static let copied = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// Edits per input, at most.
    static let limit = 16

    private var bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Applies the edits to the database at `path`, each on its own: one a constraint refuses is skipped.
    mutating func apply(to path: String, tables: [HealthConnectTemplate.Table]) {
        guard !tables.isEmpty else { return }
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let database else {
            sqlite3_close(database)
            return
        }
        defer { sqlite3_close(database) }
        // One transaction, no syncs: the file is scratch, and thousands are written a second.
        sqlite3_exec(database, "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; BEGIN", nil, nil, nil)
        defer { sqlite3_exec(database, "COMMIT", nil, nil, nil) }
        for _ in 0..<Self.limit {
            guard offset + 4 <= bytes.count else { return }
            let table = tables[Int(byte()) % tables.count]
            let column = table.columns[Int(byte()) % table.columns.count]
            let row = Int64(byte()) % Int64(table.rows)
            var statement: OpaquePointer?
            let sql =
                "UPDATE \(table.name) SET \(column) = ?1 WHERE rowid = "
                + "(SELECT rowid FROM \(table.name) ORDER BY rowid LIMIT 1 OFFSET ?2)"
            guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else { continue }
            bindValue(statement)
            sqlite3_bind_int64(statement, 2, row)
            _ = sqlite3_step(statement)
            sqlite3_finalize(statement)
        }
    }

    private mutating func bindValue(_ statement: OpaquePointer) {
        switch byte() % 8 {
        case 0: sqlite3_bind_int64(statement, 1, Int64(bitPattern: word()))
        case 1: sqlite3_bind_int64(statement, 1, Self.integers[Int(byte()) % Self.integers.count])
        case 2: sqlite3_bind_double(statement, 1, Double(bitPattern: word()))
        case 3: sqlite3_bind_double(statement, 1, Self.doubles[Int(byte()) % Self.doubles.count])
        case 4:
            let run = take(Int(byte()))
            if let base = run.baseAddress {
                // SQLite copies the bytes (SQLITE_TRANSIENT), which need not be UTF-8.
                sqlite3_bind_text(statement, 1, base.assumingMemoryBound(to: CChar.self), Int32(run.count), Self.copied)
            } else {
                sqlite3_bind_text(statement, 1, "", 0, Self.copied)
            }
        case 5:
            let run = take(Int(byte()))
            if let base = run.baseAddress {
                sqlite3_bind_blob(statement, 1, base, Int32(run.count), Self.copied)
            } else {
                sqlite3_bind_zeroblob(statement, 1, 0)
            }
        case 6: sqlite3_bind_null(statement, 1)
        default: sqlite3_bind_int64(statement, 1, Int64(Int8(bitPattern: byte())))
        }
    }

    private mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func word() -> UInt64 {
        (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) }
    }

    private mutating func take(_ count: Int) -> UnsafeRawBufferPointer {
        let end = min(bytes.count, offset + count)
        defer { offset = end }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }
}
