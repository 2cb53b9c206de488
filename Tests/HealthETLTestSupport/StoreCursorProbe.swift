import HealthETLSQLite

/// Reads a store's cursor straight from its database, without opening the store (no migration,
/// no lock): for a test that looks at a store while another process, stopped, holds it open.
public enum StoreCursorProbe {
    /// The position of `stream`'s cursor in `lane` (`hot`, `cold`, `change`), `nil` when none.
    public static func position(store: String, stream: String, lane: String) throws -> Int64? {
        let connection = try SQLiteConnection(path: store + "/healthetl.sqlite")
        let code = ["hot": 0, "cold": 1, "change": 2][lane] ?? -1
        let quoted = "'" + stream.replacingOccurrences(of: "'", with: "''") + "'"
        return try connection.scalar(
            "SELECT c.position FROM cursors c JOIN streams s ON s.id = c.stream_id WHERE s.name = \(quoted) AND c.lane = \(code)"
        )
    }
}
