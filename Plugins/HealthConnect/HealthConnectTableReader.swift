import HealthETLCore
import HealthETLSQLite

/// Reads one record table (a record type's own table, moments or spans) into raw records: one
/// per mapped column that holds a value, in row order, after a given row.
///
/// Values stay as stored (grams, calories, 0–100 percent) with the stored unit the catalog
/// names, so the normalizer converts them like any source's; enum numbers become the catalog's
/// category values here, because category sets hold no numbers (they would clash between sources).
/// A table without its time columns, or without any of its mapped columns, is still read row by
/// row, each row a record the normalizer quarantines with the reason (nothing goes unreported).
struct HealthConnectTableReader {
    /// Health Connect's "unset" for optional numbers (nutrients, route altitude): Java's
    /// `Double.MIN_VALUE`, not a value.
    static let unset = Double.leastNonzeroMagnitude

    let table: String
    /// `nil` when the table lacks its time columns.
    let shape: HealthConnectRecordShape?
    /// The mapped columns the table has.
    let columns: [HealthConnectTableMap.Column]
    /// The mapped columns it lacks: their values cannot be read.
    let missing: [HealthConnectTableMap.Column]
    /// Mappings without a column: each row is such a sample, without a value.
    let events: [HealthConnectTableMap.Column]
    /// Columns that qualify a row's values (where it was measured, which meal), kept as metadata.
    let qualifiers: [String]
    private let origin: [String]

    /// Qualifying columns record tables have (blood pressure's body position, glucose's relation
    /// to a meal, a meal's name); stored as numbers or text, kept as written.
    static let qualifierColumns = [
        "body_position", "measurement_location", "measurement_method", "meal_name", "meal_type", "relation_to_meal",
        "specimen_source", "type",
    ]

    /// The reader for `table`, or `nil` when it has no row ids to read by.
    init?(table: String, mapped: [HealthConnectTableMap.Column], schema: HealthConnectSchema) {
        let present = Set((schema.tables[table] ?? []).map(\.name))
        guard present.contains("row_id"), !mapped.isEmpty else { return nil }
        self.table = table
        shape = HealthConnectRecordShape(columns: present)
        columns = mapped.filter { $0.field.field.map(present.contains) ?? false }
        missing = mapped.filter { $0.field.field.map { !present.contains($0) } ?? false }
        events = mapped.filter { $0.field.field == nil }
        origin = HealthConnectOrigin.columns(present: present)
        let values = Set(mapped.compactMap(\.field.field))
        qualifiers = Self.qualifierColumns.filter { present.contains($0) && !values.contains($0) }
    }

    /// Every record of the rows after `afterRow`, in row order, handed to `emit` with its row id.
    func read(
        _ database: HealthConnectDatabase, provenance: HealthConnectProvenance, afterRow: Int64,
        emit: (Int64, RawRecord) throws -> Void
    ) throws {
        let times = shape?.timeColumns ?? ["NULL", "NULL", "NULL", "NULL"]
        let selected =
            ["row_id"] + origin + (times + columns.map { $0.field.field ?? "" } + qualifiers).map(Self.quoted)
        let rows = try database.connection.prepare(
            "SELECT \(selected.joined(separator: ", ")) FROM \(Self.quoted(table)) "
                + "WHERE row_id > ?1 ORDER BY row_id")
        try rows.bind(1, afterRow)
        let first: Int32 = 9
        let noTime = RawTime.text("no time column in \(table)")
        while try rows.step() {
            let row = rows.int64(0)
            let start = shape == nil ? noTime : Self.timestamp(rows, 5, 6)
            let end = shape == nil ? noTime : Self.timestamp(rows, 7, 8)
            var origin = HealthConnectOrigin(rows, provenance: provenance, uuidKey: "health_connect_uuid")
            for (offset, name) in qualifiers.enumerated() {
                let index = first + Int32(columns.count + offset)
                guard !rows.isNull(index), let text = rows.text(index) else { continue }
                origin.metadata.append(MetadataEntry(key: "health_connect_" + name, value: text))
            }
            for event in events {
                try emit(row, record(event, origin: origin, value: .absent, start: start, end: end))
            }
            if columns.isEmpty, let lost = missing.first {
                // None of its values can be read: one record per row, refused for its missing value.
                try emit(row, record(lost, origin: origin, value: .absent, start: start, end: end))
                continue
            }
            for (offset, column) in columns.enumerated() {
                guard let value = Self.value(rows, first + Int32(offset), field: column.field) else { continue }
                try emit(row, record(column, origin: origin, value: value, start: start, end: end))
            }
        }
    }

    private func record(
        _ column: HealthConnectTableMap.Column, origin: HealthConnectOrigin, value: RawValue, start: RawTime,
        end: RawTime
    ) -> RawRecord {
        RawRecord(
            type: column.type, sourceName: origin.sourceName, device: origin.device, unit: column.field.unit,
            value: value, start: start, end: end, metadata: origin.metadata)
    }

    /// A column's value: absent when NULL or unset; an enum number as its catalog value (or the
    /// number as written when the catalog does not know it, for the normalizer to refuse).
    static func value(_ rows: SQLiteStatement, _ index: Int32, field: HealthConnectField) -> RawValue? {
        guard !rows.isNull(index) else { return nil }
        if !field.values.isEmpty {
            let stored = rows.text(index) ?? ""
            return .text(field.values[stored] ?? stored)
        }
        // Text or a blob where a number belongs is handed on as written, for the normalizer to
        // refuse: SQLite would read it as 0.
        guard rows.isNumber(index) else { return .text(rows.text(index) ?? "") }
        let number = rows.double(index)
        guard number != unset else { return nil }
        return .number(number)
    }

    /// Epoch milliseconds and an offset in seconds; a time that is not a number stays text the
    /// normalizer refuses.
    static func timestamp(_ rows: SQLiteStatement, _ time: Int32, _ offset: Int32) -> RawTime {
        guard rows.isNumber(time), rows.isNull(offset) || rows.isNumber(offset) else {
            return .text(rows.text(time) ?? "")
        }
        return .timestamp(
            Timestamp(
                instant: Instant(millisecondsSinceEpoch: rows.int64(time)),
                utcOffsetSeconds: rows.isNull(offset) ? nil : Int32(clamping: rows.int64(offset))))
    }

    static func quoted(_ name: String) -> String {
        name == "NULL" || name.hasPrefix("hex(")
            ? name : "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
