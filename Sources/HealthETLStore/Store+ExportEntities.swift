import HealthETLCore
import HealthETLSQLite

extension Store {
    /// Stores new workouts with their parts, events, statistics and route; known ones are counted.
    func write(_ workouts: [LanedWorkout], context: CommitContext, into result: inout CommitResult) throws {
        for laned in workouts {
            let workout = laned.workout
            let inserted = try prepared(
                """
                INSERT INTO workouts(id, activity_type, source_id, source_version, device_id,
                    start_ms, end_ms, utc_offset_s, duration_s, totals, metadata, route_files, lane,
                    stream_id, committed_ms)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
                ON CONFLICT DO NOTHING
                """
            ).run(
                .blob(workout.id.bytes), .text(workout.activityType),
                .integer(try intern(.sources, workout.sourceName)),
                .optional(workout.sourceVersion), .optional(try workout.device.map { try intern(.devices, $0) }),
                .integer(workout.start.millisecondsSinceEpoch), .integer(workout.end.millisecondsSinceEpoch),
                .optional(workout.utcOffsetSeconds.map(Int64.init)), .optional(workout.durationSeconds),
                .optional(workout.totals.isEmpty ? nil : JSONText.pairs(workout.totals)),
                .optional(workout.metadata.isEmpty ? nil : JSONText.pairs(workout.metadata)),
                .optional(workout.routeFiles.isEmpty ? nil : JSONText.array(workout.routeFiles)),
                .integer(Int64(laned.lane.code)), .integer(context.stream), .integer(context.committedAt))
            guard inserted == 1 else {
                result.workoutDuplicates += 1
                continue
            }
            result.workouts += 1
            let whole = WorkoutActivity(
                activityType: workout.activityType, start: workout.start, end: workout.end,
                durationSeconds: workout.durationSeconds, metadata: [], events: workout.events,
                statistics: workout.statistics)
            for (part, activity) in ([whole] + workout.activities).enumerated() {
                try write(activity, part: part, of: workout.id)
            }
            let point = try prepared(
                """
                INSERT INTO workout_route_points(workout_id, seq, time_ms, latitude, longitude,
                    elevation_m, speed_mps, horizontal_accuracy_m)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """)
            // A route has thousands of points: bound value by value, without a list of values
            // and a copy of the id per point.
            for (seq, location) in workout.route.enumerated() {
                try point.rebind { parameters in
                    try parameters.bind(1, workout.id)
                    try parameters.bind(2, Int64(seq))
                    try parameters.bind(3, location.instant?.millisecondsSinceEpoch)
                    try parameters.bind(4, location.latitude)
                    try parameters.bind(5, location.longitude)
                    try parameters.bind(6, location.elevationMeters)
                    try parameters.bind(7, location.speedMetersPerSecond)
                    try parameters.bind(8, location.horizontalAccuracyMeters)
                }
                _ = try point.execute()
            }
        }
    }

    private func write(_ activity: WorkoutActivity, part: Int, of workout: ContentID) throws {
        if part > 0 {
            try prepared(
                """
                INSERT INTO workout_activities(workout_id, part, activity_type, start_ms, end_ms,
                    duration_s, metadata)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                """
            ).run(
                .blob(workout.bytes), .integer(Int64(part)), .optional(activity.activityType),
                .integer(activity.start.millisecondsSinceEpoch), .integer(activity.end.millisecondsSinceEpoch),
                .optional(activity.durationSeconds),
                .optional(activity.metadata.isEmpty ? nil : JSONText.pairs(activity.metadata)))
        }
        let event = try prepared(
            """
            INSERT INTO workout_events(workout_id, part, seq, type, date_ms, duration_s, metadata)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        for (seq, item) in activity.events.enumerated() {
            try event.run(
                .blob(workout.bytes), .integer(Int64(part)), .integer(Int64(seq)), .text(item.type),
                .integer(item.date.millisecondsSinceEpoch), .optional(item.durationSeconds),
                .optional(item.metadata.isEmpty ? nil : JSONText.pairs(item.metadata)))
        }
        let statistic = try prepared(
            """
            INSERT INTO workout_statistics(workout_id, part, seq, type, start_ms, end_ms, sum, average,
                minimum, maximum, unit)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            """)
        for (seq, item) in activity.statistics.enumerated() {
            try statistic.run(
                .blob(workout.bytes), .integer(Int64(part)), .integer(Int64(seq)), .text(item.type),
                .optional(item.start?.millisecondsSinceEpoch), .optional(item.end?.millisecondsSinceEpoch),
                .optional(item.sum), .optional(item.average), .optional(item.minimum), .optional(item.maximum),
                .optional(item.unit))
        }
    }

    /// Stores each day's summary; a day already stored with other figures takes the new ones.
    func write(_ summaries: [ActivitySummary], context: CommitContext, into result: inout CommitResult) throws {
        let statement = try prepared(
            """
            INSERT INTO activity_summaries(day, attributes, stream_id, committed_ms) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT(day) DO UPDATE SET attributes = excluded.attributes, stream_id = excluded.stream_id,
                committed_ms = excluded.committed_ms
            WHERE attributes <> excluded.attributes
            """)
        for summary in summaries {
            result.activitySummaries += try statement.run(
                .text(summary.day.description), .text(JSONText.pairs(summary.attributes)),
                .integer(context.stream), .integer(context.committedAt))
        }
    }

    func write(_ documents: [ExportDocument], context: CommitContext, into result: inout CommitResult) throws {
        let statement = try prepared(
            """
            INSERT INTO export_documents(id, kind, start_ms, end_ms, source_id, body, stream_id,
                committed_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            ON CONFLICT DO NOTHING
            """)
        for document in documents {
            result.documents += try statement.run(
                .blob(document.id.bytes), .text(document.kind), .optional(document.start?.millisecondsSinceEpoch),
                .optional(document.end?.millisecondsSinceEpoch),
                .optional(try document.sourceName.map { try intern(.sources, $0) }), .text(document.body),
                .integer(context.stream), .integer(context.committedAt))
        }
    }
}
