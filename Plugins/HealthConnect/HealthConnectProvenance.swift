import HealthETLSQLite

/// Who wrote a record: the apps (`application_info_table`) and devices (`device_info_table`) of
/// the database, read once.
struct HealthConnectProvenance {
    struct App {
        let packageName: String
        let name: String
    }

    var apps: [Int64: App] = [:]
    var devices: [Int64: String] = [:]

    /// Device types as Health Connect stores them.
    static let deviceTypes: [Int64: String] = [
        1: "watch", 2: "phone", 3: "scale", 4: "ring", 5: "head-mounted", 6: "fitness band", 7: "chest strap",
        8: "smart display",
    ]

    init(database: HealthConnectDatabase, schema: HealthConnectSchema) throws {
        if schema.hasColumn("package_name", in: "application_info_table") {
            let hasName = schema.hasColumn("app_name", in: "application_info_table")
            let rows = try database.connection.prepare(
                "SELECT row_id, package_name, \(hasName ? "app_name" : "NULL") FROM application_info_table")
            while try rows.step() {
                let package = rows.text(1) ?? ""
                apps[rows.int64(0)] = App(
                    packageName: package, name: rows.text(2).flatMap { $0.isEmpty ? nil : $0 } ?? package)
            }
        }
        let deviceColumns = ["manufacturer", "model", "device_type"]
        if deviceColumns.allSatisfy({ schema.hasColumn($0, in: "device_info_table") }) {
            let rows = try database.connection.prepare(
                "SELECT row_id, manufacturer, model, device_type FROM device_info_table")
            while try rows.step() {
                let parts = [rows.text(1), rows.text(2)].compactMap { $0 }.filter { !$0.isEmpty }
                var text = parts.joined(separator: " ")
                if !rows.isNull(3), let type = Self.deviceTypes[rows.int64(3)] {
                    text += text.isEmpty ? type : " (\(type))"
                }
                if !text.isEmpty { devices[rows.int64(0)] = text }
            }
        }
    }

    /// The source name of a record: the app's name, else its package, else a placeholder that
    /// still keeps one app's records together.
    func sourceName(app id: Int64?) -> String {
        guard let id else { return "Health Connect" }
        return apps[id]?.name ?? "Health Connect app \(id)"
    }
}
