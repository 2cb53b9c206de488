import Foundation
import HealthETLSQLite

/// A Health Connect export's database, open for reading only.
///
/// Confined to one thread, like the connection it holds.
final class HealthConnectDatabase {
    let path: String
    let connection: SQLiteConnection
    /// Tables whose schema would run the file's own SQL, with why: never checked nor read.
    let refused: [String: String]

    /// SQLite's file header: the first 16 bytes of every database.
    static let magic = Array("SQLite format 3\u{0}".utf8)

    /// Opens `path` as an unchanging, untrusted snapshot and checks every page and index first:
    /// a damaged copy is refused whole, with SQLite's finding, rather than read in part. Tables
    /// whose schema would run the file's own SQL are set aside before the check
    /// (`HealthConnectSchemaAudit`); the check then covers the others one by one.
    /// - Parameter opened: called once the file is open, before the check (a temporary copy's
    ///   name can go then).
    init(path: String, opened: () -> Void = {}) throws {
        self.path = path
        guard Self.startsWithMagic(path) else { throw HealthConnectError.notADatabase(path: path) }
        do {
            connection = try SQLiteConnection(snapshotAt: path)
            opened()
            let audit = try HealthConnectSchemaAudit(connection: connection)
            refused = audit.refused
            var findings = ["ok"]
            if refused.isEmpty {
                findings = try connection.integrityFindings(thorough: true, limit: 5)
            } else {
                // Table by table, the refused ones left out (the file's free pages go unchecked).
                let damage = try audit.tables.filter { refused[$0] == nil }.flatMap {
                    try connection.integrityFindings(thorough: true, table: $0).filter { $0 != "ok" }
                }
                if !damage.isEmpty { findings = Array(damage.prefix(5)) }
            }
            guard findings == ["ok"] else {
                throw HealthConnectError.damaged(path: path, finding: findings.joined(separator: "; "))
            }
        } catch let error as SQLiteError {
            throw error.isDamage
                ? HealthConnectError.damaged(path: path, finding: error.message)
                : HealthConnectError.unreadable(path: path, reason: error.description)
        }
    }

    /// Whether the file begins with SQLite's header.
    static func startsWithMagic(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: magic.count)) ?? Data()
        return Array(head) == magic
    }

    /// Every table with its columns. `table_xinfo`, not `table_info`: the latter hides the
    /// generated local-time columns schema 10 added.
    func schema() throws -> HealthConnectSchema {
        do {
            let version = Int(try connection.scalar("PRAGMA user_version") ?? 0)
            var names: [String] = []
            let list = try connection.prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            while try list.step() {
                let name = list.text(0) ?? ""
                if refused[name] == nil { names.append(name) }
            }
            var tables: [String: [HealthConnectColumn]] = [:]
            for name in names {
                let info = try connection.prepare("SELECT name, type, hidden FROM pragma_table_xinfo(?1)")
                try info.bind(1, name)
                var columns: [HealthConnectColumn] = []
                while try info.step() {
                    // hidden: 2 for a virtual generated column, 3 for a stored one.
                    columns.append(
                        HealthConnectColumn(
                            name: info.text(0) ?? "", declaredType: info.text(1) ?? "",
                            isGenerated: info.int64(2) >= 2))
                }
                tables[name] = columns
            }
            var parents: [String: String] = [:]
            for name in names where tables[name]?.contains(where: { $0.name == "parent_key" }) == true {
                let keys = try connection.prepare(
                    "SELECT \"table\" FROM pragma_foreign_key_list(?1) WHERE \"from\" = 'parent_key'")
                try keys.bind(1, name)
                if try keys.step(), let parent = keys.text(0) { parents[name] = parent }
            }
            return HealthConnectSchema(userVersion: version, tables: tables, parents: parents, refused: refused)
        } catch let error as SQLiteError {
            throw HealthConnectError.unreadable(path: path, reason: error.description)
        }
    }
}
