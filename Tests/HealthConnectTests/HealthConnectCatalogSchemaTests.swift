import Foundation
import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import Testing

@testable import HealthConnect

/// The catalog's Health Connect mappings against the schema reconstructed from AOSP: every mapped
/// column of a table that exists at version 14 is there, and only the tables of later versions
/// (activity intensity, behind a flag at 16) are absent.
struct HealthConnectCatalogSchemaTests {
    let directory = TemporaryDirectory("healthetl-hc-catalog")

    @Test func everyMappedColumnExistsAtVersion14() throws {
        let path = directory.child("v14.db")
        _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        try SQLiteConnection(path: path).execute(
            try String(
                contentsOfFile: TestPaths.repository("Plugins/Synthetic/HealthConnectExport/health-connect-v14.sql"),
                encoding: .utf8))
        let schema = try HealthConnectDatabase(path: path).schema()
        let map = HealthConnectTableMap(catalog: try MetricCatalog.bundled())
        var absentTables: Set<String> = []
        for (table, columns) in map.tables {
            guard schema.hasTable(table) else {
                absentTables.insert(table)
                continue
            }
            for column in columns {
                // A mapping without a column (a bleeding event) is the row itself.
                guard let name = column.field.field else { continue }
                #expect(schema.hasColumn(name, in: table), "\(table).\(name)")
            }
        }
        #expect(absentTables == ["activity_intensity_record_table"])
    }
}
