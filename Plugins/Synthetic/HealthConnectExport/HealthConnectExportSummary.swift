import HealthETLCore

/// What a Health Connect export run wrote: rows per table, and what a following export changed.
public struct HealthConnectExportSummary: Sendable {
    public var zipPath = ""
    public var zipBytes: Int64 = 0
    public var databaseBytes: Int64 = 0
    /// Rows per table, by table name.
    public var rows: [String: Int] = [:]
    /// For a following export: records deleted and edited since the previous one.
    public var deleted = 0
    public var edited = 0
    public var exportedAt = ""
    public var seconds = 0.0

    public var totalRows: Int { rows.values.reduce(0, +) }

    public var json: String {
        let tables = rows.sorted { $0.key < $1.key }.map { "\(JSONText.quoted($0.key)):\($0.value)" }
        return "{\"zip\":\(JSONText.quoted(zipPath)),\"zip_bytes\":\(zipBytes),\"database_bytes\":\(databaseBytes),"
            + "\"rows\":\(totalRows),\"deleted\":\(deleted),\"edited\":\(edited),"
            + "\"exported_at\":\(JSONText.quoted(exportedAt)),\"elapsed_s\":\((seconds * 1000).rounded() / 1000),"
            + "\"tables\":{\(tables.joined(separator: ","))}}"
    }
}
