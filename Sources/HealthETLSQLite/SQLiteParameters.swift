import CSQLite
import HealthETLCore

/// A statement's parameters, bound by index. Text and ids are copied into `KeptBytes`, which
/// SQLite reads in place (`SQLITE_STATIC`) until the statement is reset.
///
/// A value the statement holds and lends out whole (`SQLiteStatement.rebind`): each bind through
/// a field of the statement, a class, cost a dynamic exclusivity check (2 % of an import's
/// writer, five per sample); a row's or a whole insert's binds now cost one.
package struct SQLiteParameters: ~Copyable {
    private let handle: OpaquePointer
    private var kept = KeptBytes()

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    /// Forgets the copies kept for the last execution; nothing bound may point into them any more.
    mutating func forgetKept() {
        kept.removeAll()
    }

    package mutating func bind(_ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    package mutating func bind(_ index: Int32, _ value: Int64?) throws {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        try check(sqlite3_bind_int64(handle, index, value))
    }

    package mutating func bind(_ index: Int32, _ value: Double?) throws {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds text by its length, so a NUL inside it is stored, not taken for its end.
    package mutating func bind(_ index: Int32, _ value: String?) throws {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        let count = value.utf8.count
        guard let room = kept.room(for: count),
            value.utf8.withContiguousStorageIfAvailable({ room.copyMemory(from: $0.baseAddress!, byteCount: count) })
                != nil
        else {
            return try check(Self.bindCopied(value, at: index, of: handle))
        }
        try check(sqlite3_bind_text(handle, index, room.assumingMemoryBound(to: CChar.self), Int32(count), nil))
    }

    /// Binds a content id's 16 bytes.
    package mutating func bind(_ index: Int32, _ id: ContentID) throws {
        let words = (id.high.bigEndian, id.low.bigEndian)
        guard let room = kept.room(for: 16) else {  // never: a chunk holds far more
            return try withUnsafeBytes(of: words) {
                try check(sqlite3_bind_blob(handle, index, $0.baseAddress, 16, SQLiteStatement.transient))
            }
        }
        withUnsafeBytes(of: words) { room.copyMemory(from: $0.baseAddress!, byteCount: 16) }
        try check(sqlite3_bind_blob(handle, index, room, 16, nil))
    }

    /// Binds text SQLite copies (empty, too long to keep, or not contiguous).
    static func bindCopied(_ value: String, at index: Int32, of handle: OpaquePointer) -> Int32 {
        guard !value.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, SQLiteStatement.transient) }
        var text = value
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), SQLiteStatement.transient)
            }
        }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            throw SQLiteError(
                code: code, message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))),
                statement: String(cString: sqlite3_sql(handle)))
        }
    }
}
