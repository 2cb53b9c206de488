/// The tables and columns a Health Connect database has, as found in it: the schema moves with
/// the Health Connect module (user_version 9 on), and a phone that upgraded has added columns
/// after the original ones, so nothing is assumed by position.
public struct HealthConnectSchema: Sendable {
    /// SQLite's `user_version`: the Health Connect database version that wrote it.
    public var userVersion: Int
    /// Table name → its columns in declared order.
    public var tables: [String: [HealthConnectColumn]]
    /// Child table → the record table its `parent_key` refers to (series, stages, deltas).
    public var parents: [String: String]
    /// Tables set aside unread because their schema would run the file's own SQL, with why
    /// (`HealthConnectSchemaAudit`); they are not in `tables`.
    public var refused: [String: String]

    public init(
        userVersion: Int, tables: [String: [HealthConnectColumn]], parents: [String: String] = [:],
        refused: [String: String] = [:]
    ) {
        self.userVersion = userVersion
        self.tables = tables
        self.parents = parents
        self.refused = refused
    }

    public func hasTable(_ name: String) -> Bool { tables[name] != nil }

    /// Whether `table` has `column` (generated ones included).
    public func hasColumn(_ column: String, in table: String) -> Bool {
        tables[table]?.contains { $0.name == column } ?? false
    }
}
