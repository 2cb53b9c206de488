import HealthETLCore
import HealthETLSQLite

/// Reads one record table (a record type's own table, moments or spans) into raw records: one
/// per mapped column that holds a value, in row order, after a given row.
///
/// Values stay as stored (grams, calories, 0–100 percent) with the stored unit the catalog
/// names, so the normalizer converts them like any source's; enum numbers become the catalog's
/// category values here, because category sets hold no numbers (they would clash between sources).
struct HealthConnectTableReader {
    /// Health Connect's "unset" for optional numbers (nutrients, route altitude): Java's
    /// `Double.MIN_VALUE`, not a value.
    static let unset = Double.leastNonzeroMagnitude

    let table: String
    let shape: HealthConnectRecordShape
    /// The mapped columns the table has.
    let columns: [HealthConnectTableMap.Column]
    /// The mapped columns it lacks: their values cannot be read.
    let missing: [HealthConnectTableMap.Column]
    private let hasRecordingMethod: Bool
    private let hasDevice: Bool

    /// The reader for `table`, or `nil` when it has no time columns to read records by.
    init?(table: String, mapped: [HealthConnectTableMap.Column], schema: HealthConnectSchema) {
        let present = Set((schema.tables[table] ?? []).map(\.name))
        guard let shape = HealthConnectRecordShape(columns: present), present.contains("row_id") else { return nil }
        self.table = table
        self.shape = shape
        columns = mapped.filter { present.contains($0.field.field ?? "") }
        missing = mapped.filter { !present.contains($0.field.field ?? "") }
        hasRecordingMethod = present.contains("recording_method")
        hasDevice = present.contains("device_info_id")
    }

    /// Every record of the rows after `afterRow`, in row order, handed to `emit` with its row id.
    func read(
        _ database: HealthConnectDatabase, provenance: HealthConnectProvenance, afterRow: Int64,
        emit: (Int64, RawRecord) throws -> Void
    ) throws {
        let selected =
            [
                "row_id", "app_info_id", hasDevice ? "device_info_id" : "NULL",
                hasRecordingMethod ? "recording_method" : "NULL", "hex(uuid)",
            ]
            + shape.timeColumns + columns.map { $0.field.field ?? "" }
        let rows = try database.connection.prepare(
            "SELECT \(selected.map(Self.quoted).joined(separator: ", ")) FROM \(Self.quoted(table)) "
                + "WHERE row_id > ?1 ORDER BY row_id")
        try rows.bind(1, afterRow)
        let first: Int32 = 9
        while try rows.step() {
            let row = rows.int64(0)
            let start = Self.timestamp(rows, 5, 6)
            let end = Self.timestamp(rows, 7, 8)
            var metadata: [MetadataEntry] = [MetadataEntry(key: "health_connect_uuid", value: rows.text(4) ?? "")]
            if !rows.isNull(3) {
                metadata.append(MetadataEntry(key: "health_connect_recording_method", value: String(rows.int64(3))))
            }
            for (offset, column) in columns.enumerated() {
                let index = first + Int32(offset)
                guard let value = Self.value(rows, index, field: column.field) else { continue }
                let record = RawRecord(
                    type: column.type, sourceName: provenance.sourceName(app: rows.isNull(1) ? nil : rows.int64(1)),
                    device: rows.isNull(2) ? nil : provenance.devices[rows.int64(2)], unit: column.field.unit,
                    value: value, start: start, end: end, metadata: metadata)
                try emit(row, record)
            }
        }
    }

    /// A column's value: absent when NULL or unset; an enum number as its catalog value (or the
    /// number as written when the catalog does not know it, for the normalizer to refuse).
    static func value(_ rows: SQLiteStatement, _ index: Int32, field: HealthConnectField) -> RawValue? {
        guard !rows.isNull(index) else { return nil }
        if !field.values.isEmpty {
            let stored = rows.text(index) ?? ""
            return .text(field.values[stored] ?? stored)
        }
        let number = rows.double(index)
        guard number != unset else { return nil }
        return .number(number)
    }

    /// Epoch milliseconds and an offset in seconds; a NULL time stays unparseable text.
    static func timestamp(_ rows: SQLiteStatement, _ time: Int32, _ offset: Int32) -> RawTime {
        guard !rows.isNull(time) else { return .text("") }
        return .timestamp(
            Timestamp(
                instant: Instant(millisecondsSinceEpoch: rows.int64(time)),
                utcOffsetSeconds: rows.isNull(offset) ? nil : Int32(truncatingIfNeeded: rows.int64(offset))))
    }

    static func quoted(_ name: String) -> String {
        name == "NULL" || name.hasPrefix("hex(")
            ? name : "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
