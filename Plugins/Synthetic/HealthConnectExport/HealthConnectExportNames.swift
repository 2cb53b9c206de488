/// The names a Health Connect export uses.
enum HealthConnectExportNames {
    static let entry = "health_connect_export.db"
}
