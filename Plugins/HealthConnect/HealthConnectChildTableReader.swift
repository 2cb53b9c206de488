import HealthETLCore
import HealthETLSQLite

/// Reads a child table — series points (heart rate, speed, power, cadence), sleep stages, skin
/// temperature deltas — into raw records, each with its parent record's app, device, recording
/// method and UTC offset, and the parent's uuid as its group.
///
/// Rows are read by parent, in parent row order (a parent's rows as stored), so a resumed read
/// starts after a parent whole.
struct HealthConnectChildTableReader {
    /// How a child row holds time: a point (`epoch_millis`) or a span (`stage_start_time`,
    /// `stage_end_time`).
    enum Timing: Equatable {
        case point
        case span
    }

    let table: String
    let parent: String
    let timing: Timing
    let columns: [HealthConnectTableMap.Column]
    let missing: [HealthConnectTableMap.Column]
    private let parentShape: HealthConnectRecordShape
    private let parentColumns: Set<String>

    /// The reader for `table`, or `nil` when it is not a child of a record table with time.
    init?(table: String, mapped: [HealthConnectTableMap.Column], schema: HealthConnectSchema) {
        let present = Set((schema.tables[table] ?? []).map(\.name))
        guard let parent = schema.parents[table], present.contains("parent_key") else { return nil }
        let parentColumns = Set((schema.tables[parent] ?? []).map(\.name))
        guard let parentShape = HealthConnectRecordShape(columns: parentColumns), parentColumns.contains("row_id")
        else { return nil }
        if present.contains("epoch_millis") {
            timing = .point
        } else if present.isSuperset(of: ["stage_start_time", "stage_end_time"]) {
            timing = .span
        } else {
            return nil
        }
        self.table = table
        self.parent = parent
        self.parentShape = parentShape
        self.parentColumns = parentColumns
        columns = mapped.filter { $0.field.field.map(present.contains) ?? false }
        missing = mapped.filter { $0.field.field.map { !present.contains($0) } ?? false }
    }

    /// Every record of the parents after `afterParent`, handed to `emit` with its parent's row id.
    func read(
        _ database: HealthConnectDatabase, provenance: HealthConnectProvenance, afterParent: Int64,
        emit: (Int64, RawRecord) throws -> Void
    ) throws {
        let offsets = parentShape.timeColumns.map { parentColumns.contains($0) ? "p." + $0 : "NULL" }
        let times =
            timing == .point ? ["c.epoch_millis", "c.epoch_millis"] : ["c.stage_start_time", "c.stage_end_time"]
        let selected =
            ["p.row_id"] + HealthConnectOrigin.columns(present: parentColumns, prefix: "p.")
            + [times[0], offsets[1], times[1], offsets[3]]
            + columns.map { "c." + HealthConnectTableReader.quoted($0.field.field ?? "") }
        let rows = try database.connection.prepare(
            "SELECT \(selected.joined(separator: ", ")) FROM \(HealthConnectTableReader.quoted(table)) AS c "
                + "JOIN \(HealthConnectTableReader.quoted(parent)) AS p ON p.row_id = c.parent_key "
                // By parent only: the module's index on parent_key gives that order, where sorting
                // by time too would sort every point of the table before the first came out.
                + "WHERE c.parent_key > ?1 ORDER BY c.parent_key")
        try rows.bind(1, afterParent)
        let first: Int32 = 9
        var origin: (row: Int64, origin: HealthConnectOrigin)?
        while try rows.step() {
            let parentRow = rows.int64(0)
            if origin?.row != parentRow {
                origin = (
                    parentRow,
                    HealthConnectOrigin(rows, provenance: provenance, uuidKey: "health_connect_parent_uuid")
                )
            }
            guard let parentOrigin = origin?.origin else { continue }
            let start = HealthConnectTableReader.timestamp(rows, 5, 6)
            let end = HealthConnectTableReader.timestamp(rows, 7, 8)
            for (offset, column) in columns.enumerated() {
                guard let value = HealthConnectTableReader.value(rows, first + Int32(offset), field: column.field)
                else { continue }
                try emit(
                    parentRow,
                    RawRecord(
                        type: column.type, sourceName: parentOrigin.sourceName, device: parentOrigin.device,
                        unit: column.field.unit, value: value, start: start, end: end,
                        metadata: parentOrigin.metadata))
            }
        }
    }
}
