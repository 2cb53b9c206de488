import HealthETLCore

/// What a read of one Health Connect database does, decided from its schema before any record:
/// the parts in a fixed order with their places on the cursor line, and what the schema holds
/// that the catalog does not know (reported once each, never a failure).
struct HealthConnectReadPlan {
    /// Tables the module keeps that hold no records to read (bookkeeping, logs, settings) or
    /// that are read through another (exercise children, planned exercise structure).
    static let knownTables: Set<String> = [
        "application_info_table", "device_info_table", HealthConnectPriority.table, "access_logs_table",
        "change_logs_table", "change_log_request_table", "preference_table", "migration_entity_table",
        "priority_migration_table", "android_metadata", "read_access_logs_table", "backup_change_token_table",
        HealthConnectExerciseReader.laps, HealthConnectExerciseReader.segments, HealthConnectExerciseReader.route,
        "planned_exercise_session_blocks_table", "planned_exercise_session_steps_table",
        "planned_exercise_session_goals_table",
    ]

    /// Columns every record table may have beside its values: identity, provenance, time and
    /// the module's own bookkeeping (`dedupe_hash`, the generated local-time columns).
    static let commonColumns = Set([
        "row_id", "uuid", "last_modified_time", "client_record_id", "client_record_version", "device_info_id",
        "app_info_id", "recording_method", "dedupe_hash", "time", "zone_offset", "start_time",
        "start_zone_offset", "end_time", "end_zone_offset", "local_date", "local_date_time",
        "local_date_time_start_time", "local_date_time_end_time", "title", "notes", "parent_key", "epoch_millis",
        "stage_start_time", "stage_end_time", "has_route", "planned_exercise_session_id", "completed_session_id",
        "has_explicit_time",
    ]).union(HealthConnectTableReader.qualifierColumns)

    /// The largest row id a table places on the cursor line (4.5 × 10^15, more rows than any
    /// phone writes). The line holds the tables end to end, so with the catalog's few dozen
    /// tables it stays far inside `Int64`; rows above it (ids near 2^63 in a hostile file) are
    /// still read, after their table's others, and committed with the table's end.
    static let largestPlacedRow: Int64 = 1 << 52

    let parts: [HealthConnectPart]
    let end: Int64
    let warnings: [String: Int]
    /// The newest `last_modified_time` of any record: the export was written no earlier.
    let newestModification: Instant?

    init(database: HealthConnectDatabase, schema: HealthConnectSchema, catalog: MetricCatalog) throws {
        let map = HealthConnectTableMap(catalog: catalog)
        var warnings: [String: Int] = [:]
        var readers: [(name: String, rows: String, reader: HealthConnectPart.Reader)] = []
        func warnMissing(_ columns: [HealthConnectTableMap.Column], in table: String) {
            for column in columns { warnings["missing_column:\(table).\(column.field.field ?? "")"] = 1 }
        }
        for (table, mapped) in map.tables where schema.hasTable(table) {
            if schema.parents[table] != nil {
                guard let reader = HealthConnectChildTableReader(table: table, mapped: mapped, schema: schema) else {
                    warnings["unreadable_table:\(table)"] = 1
                    continue
                }
                readers.append((table, reader.parent, .children(reader)))
                warnMissing(reader.missing, in: table)
            } else {
                guard let reader = HealthConnectTableReader(table: table, mapped: mapped, schema: schema) else {
                    warnings["unreadable_table:\(table)"] = 1
                    continue
                }
                readers.append((table, table, .table(reader)))
                if reader.shape == nil { warnings["missing_time_columns:\(table)"] = 1 }
                if reader.columns.isEmpty, !reader.missing.isEmpty {
                    warnings["missing_value_columns:\(table)"] = 1
                } else {
                    warnMissing(reader.missing, in: table)
                }
            }
        }
        let exerciseType = map.tables[HealthConnectExerciseReader.table]?.first?.field
        if let exercise = HealthConnectExerciseReader(schema: schema, exerciseType: exerciseType) {
            readers.append(("workouts", HealthConnectExerciseReader.table, .exercise(exercise)))
        }
        readers.sort { $0.name < $1.name }

        var parts: [HealthConnectPart] = []
        var base: Int64 = 0
        var newest: Int64?
        let rowTables = Set(readers.map(\.rows))
        var lastRows: [String: Int64] = [:]
        let placed = Self.largestPlacedRow
        for table in rowTables.sorted() {
            let quoted = HealthConnectTableReader.quoted(table)
            lastRows[table] = max(
                0, try database.connection.scalar("SELECT max(row_id) FROM \(quoted) WHERE row_id <= \(placed)") ?? 0)
            let below = try database.connection.scalar("SELECT count(*) FROM \(quoted) WHERE row_id <= 0") ?? 0
            if below > 0 { warnings["rows_without_positive_row_id:\(table)", default: 0] += Int(below) }
            let above = try database.connection.scalar("SELECT count(*) FROM \(quoted) WHERE row_id > \(placed)") ?? 0
            if above > 0 { warnings["rows_beyond_cursor_line:\(table)", default: 0] += Int(above) }
            if schema.hasColumn("last_modified_time", in: table) {
                let (modified, outside) = try Self.newestModification(in: quoted, database)
                if let modified { newest = max(newest ?? modified, modified) }
                if outside > 0 { warnings["last_modified_time_out_of_range:\(table)", default: 0] += Int(outside) }
            }
        }
        for reader in readers {
            let lastRow = lastRows[reader.rows] ?? 0
            parts.append(HealthConnectPart(name: reader.name, reader: reader.reader, base: base, lastRow: lastRow))
            // Cannot overflow with the catalog's tables at `largestPlacedRow` each; refused, not trapped, if it did.
            let (next, overflow) = base.addingReportingOverflow(lastRow)
            guard !overflow else {
                throw HealthConnectError.unreadable(path: database.path, reason: "more tables than one read can place")
            }
            base = next
        }
        self.parts = parts
        end = base
        newestModification = newest.map { Instant(millisecondsSinceEpoch: $0) }

        let read = Set(readers.map(\.name)).union(rowTables)
        for (table, columns) in schema.tables {
            guard !read.contains(table) else {
                let mapped = Set((map.tables[table] ?? []).compactMap(\.field.field))
                for column in columns where !Self.commonColumns.contains(column.name) && !mapped.contains(column.name) {
                    warnings["unknown_column:\(table).\(column.name)"] = 1
                }
                continue
            }
            if !Self.knownTables.contains(table), map.tables[table] == nil {
                warnings["unknown_table:\(table)"] = 1
            }
        }
        self.warnings = warnings
    }

    /// The newest `last_modified_time` of a table within `SampleBounds` (an export is dated by
    /// it), and how many rows hold one outside (`Int64.max`, text): those date nothing.
    private static func newestModification(in quoted: String, _ database: HealthConnectDatabase) throws
        -> (newest: Int64?, outside: Int64)
    {
        let bounds = SampleBounds.instants
        let within =
            "last_modified_time >= \(bounds.lowerBound.millisecondsSinceEpoch) "
            + "AND last_modified_time < \(bounds.upperBound.millisecondsSinceEpoch)"
        let row = try database.connection.prepare(
            "SELECT max(CASE WHEN \(within) THEN last_modified_time END), "
                + "count(last_modified_time) - count(CASE WHEN \(within) THEN 1 END) FROM \(quoted)")
        guard try row.step() else { return (nil, 0) }
        return (row.isNull(0) ? nil : row.int64(0), row.int64(1))
    }
}
