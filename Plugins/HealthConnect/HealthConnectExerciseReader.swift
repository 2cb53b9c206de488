import HealthETLCore
import HealthETLSQLite

/// Reads exercise sessions as workouts, each with its laps and segments as events and its route:
/// the same entity an Apple export's `Workout` becomes. (The session's `workout` sample comes
/// from the table reader, like every mapped column.)
struct HealthConnectExerciseReader {
    static let table = "exercise_session_record_table"
    static let laps = "exercise_laps_table"
    static let segments = "exercise_segments_table"
    static let route = "exercise_route_table"

    /// Exercise type numbers → the catalog's activity values.
    let activities: [String: String]
    private let schema: HealthConnectSchema

    /// The reader, or `nil` when the database has no session table with spans.
    init?(schema: HealthConnectSchema, exerciseType: HealthConnectField?) {
        let present = Set((schema.tables[Self.table] ?? []).map(\.name))
        guard HealthConnectRecordShape(columns: present) == .interval, present.contains("row_id") else { return nil }
        self.schema = schema
        activities = exerciseType?.values ?? [:]
    }

    /// Every session after `afterRow`, in row order, handed to `emit` with its row id.
    func read(
        _ database: HealthConnectDatabase, provenance: HealthConnectProvenance, afterRow: Int64,
        emit: (Int64, Workout) throws -> Void
    ) throws {
        let present = Set((schema.tables[Self.table] ?? []).map(\.name))
        let column = { (name: String) in present.contains(name) ? HealthConnectTableReader.quoted(name) : "NULL" }
        let selected =
            ["row_id"] + HealthConnectOrigin.columns(present: present)
            + ["start_time", column("start_zone_offset"), "end_time", column("exercise_type"), column("title")]
        let sessions = try database.connection.prepare(
            "SELECT \(selected.joined(separator: ", ")) FROM \(Self.table) WHERE row_id > ?1 ORDER BY row_id")
        try sessions.bind(1, afterRow)
        let children = try ChildQueries(database: database, schema: schema)
        while try sessions.step() {
            let row = sessions.int64(0)
            // A session without numeric times, or with times no sample may have, is reported by
            // its `workout` sample, which the normalizer refuses.
            guard sessions.isNumber(5), sessions.isNumber(7) else { continue }
            let start = Instant(millisecondsSinceEpoch: sessions.int64(5))
            let end = Instant(millisecondsSinceEpoch: sessions.int64(7))
            let offset = sessions.isNull(6) ? nil : Int32(clamping: sessions.int64(6))
            guard SampleBounds.instants.contains(start), SampleBounds.instants.contains(end), start <= end,
                (offset?.magnitude ?? 0) <= SampleBounds.widestUTCOffsetSeconds.magnitude
            else { continue }
            let stored = sessions.isNull(8) ? "0" : String(sessions.int64(8))
            let origin = HealthConnectOrigin(sessions, provenance: provenance, uuidKey: "health_connect_uuid")
            var metadata = origin.metadata
            if let title = sessions.text(9), !title.isEmpty {
                metadata.append(MetadataEntry(key: "title", value: title))
            }
            try emit(
                row,
                Workout(
                    activityType: activities[stored] ?? "health_connect_exercise_\(stored)",
                    sourceName: origin.sourceName, device: origin.device, start: start, end: end,
                    utcOffsetSeconds: offset, durationSeconds: start.seconds(until: end),
                    metadata: metadata, events: try children.events(of: row), route: try children.route(of: row)))
        }
    }

    /// The prepared child queries, one per child table the database has.
    private struct ChildQueries {
        let laps: SQLiteStatement?
        let segments: SQLiteStatement?
        let route: SQLiteStatement?

        init(database: HealthConnectDatabase, schema: HealthConnectSchema) throws {
            func prepare(_ table: String, _ columns: [String], order: String) throws -> SQLiteStatement? {
                guard columns.allSatisfy({ schema.hasColumn($0, in: table) }) else { return nil }
                return try database.connection.prepare(
                    "SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE parent_key = ?1 ORDER BY \(order)")
            }
            laps = try prepare(
                HealthConnectExerciseReader.laps, ["parent_key", "lap_start_time", "lap_end_time", "lap_length"],
                order: "lap_start_time")
            segments = try prepare(
                HealthConnectExerciseReader.segments,
                ["parent_key", "segment_start_time", "segment_end_time", "segment_type", "repetitions_count"],
                order: "segment_start_time")
            route = try prepare(
                HealthConnectExerciseReader.route,
                ["parent_key", "timestamp_millis", "latitude", "longitude", "altitude", "horizontal_accuracy"],
                order: "timestamp_millis")
        }

        /// Laps (with their length in metres) and segments (with their type and repetitions), by start.
        func events(of session: Int64) throws -> [WorkoutEvent] {
            var events: [WorkoutEvent] = []
            if let laps {
                laps.reset()
                try laps.bind(1, session)
                while try laps.step() {
                    var metadata: [MetadataEntry] = []
                    let length = laps.double(3)
                    if length != HealthConnectTableReader.unset, length > 0 {
                        metadata.append(MetadataEntry(key: "lap_length_m", value: String(length)))
                    }
                    if let lap = event("lap", laps, metadata: metadata) { events.append(lap) }
                }
            }
            if let segments {
                segments.reset()
                try segments.bind(1, session)
                while try segments.step() {
                    let segment = event(
                        "segment", segments,
                        metadata: [
                            MetadataEntry(key: "segment_type", value: String(segments.int64(3))),
                            MetadataEntry(key: "repetitions", value: String(segments.int64(4))),
                        ])
                    if let segment { events.append(segment) }
                }
            }
            return events.sorted { $0.date < $1.date }
        }

        /// The event of a lap or segment row; `nil` when its start is a time no sample may have.
        private func event(_ type: String, _ row: SQLiteStatement, metadata: [MetadataEntry]) -> WorkoutEvent? {
            let start = Instant(millisecondsSinceEpoch: row.int64(1))
            guard SampleBounds.instants.contains(start) else { return nil }
            return WorkoutEvent(
                type: type, date: start,
                durationSeconds: start.seconds(until: Instant(millisecondsSinceEpoch: row.int64(2))),
                metadata: metadata)
        }

        /// The route's points on Earth at times a sample may have, by time; unset altitude and
        /// accuracy are left out.
        func route(of session: Int64) throws -> [RoutePoint] {
            guard let route else { return [] }
            route.reset()
            try route.bind(1, session)
            var points: [RoutePoint] = []
            while try route.step() {
                let altitude = route.double(4)
                let accuracy = route.double(5)
                let point = RoutePoint(
                    instant: Instant(millisecondsSinceEpoch: route.int64(1)), latitude: route.double(2),
                    longitude: route.double(3),
                    elevationMeters: altitude == HealthConnectTableReader.unset ? nil : altitude,
                    horizontalAccuracyMeters: accuracy == HealthConnectTableReader.unset ? nil : accuracy)
                if point.isOnEarth, point.instant.map(SampleBounds.instants.contains) ?? false { points.append(point) }
            }
            return points
        }
    }
}
