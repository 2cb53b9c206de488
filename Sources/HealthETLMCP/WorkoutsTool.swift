import HealthETLCore
import MCP

/// `workouts`: the workouts of a range, optionally of one activity, with their statistics.
struct WorkoutsTool: HealthTool {
    struct Answer: Encodable {
        struct Measure: Encodable {
            let value: Double
            let unit: String
        }

        struct Workout: Encodable {
            let activity: String
            let localDay: String
            let start: String
            let end: String
            let durationSeconds: Double
            let energy: Measure?
            let distance: Measure?
            let averageHeartRate: Double?
            let source: String

            private enum CodingKeys: String, CodingKey {
                case activity, start, end, energy, distance, source
                case localDay = "local_day"
                case durationSeconds = "duration_s"
                case averageHeartRate = "average_heart_rate_bpm"
            }
        }

        let origin: String
        let from: String
        let to: String
        let workouts: [Workout]
        let truncated: Bool
        let sourcesUsed: [String]

        private enum CodingKeys: String, CodingKey {
            case origin, from, to, workouts, truncated
            case sourcesUsed = "sources_used"
        }
    }

    static let maximumWorkouts = 1000

    let name = "workouts"
    let description = """
        Workouts that start within a range of local days (at most 3660; default the 90 ending \
        today), optionally only those whose activity contains a word (e.g. running, cycling): \
        activity, local start and end, active duration in seconds, energy, distance and average \
        heart rate where recorded, and the source. At most 1000, oldest first, with `truncated`.
        """
    let inputSchema = JSONSchema.object([
        "from": JSONSchema.day("First local day, YYYY-MM-DD"),
        "to": JSONSchema.day("Last local day, YYYY-MM-DD (default today)"),
        "activity": JSONSchema.string("Only activities containing this text, any case, e.g. running"),
    ])
    let outputSchema: Value = {
        let measure = JSONSchema.object(
            ["value": JSONSchema.number(), "unit": JSONSchema.string()], required: ["value", "unit"])
        return JSONSchema.object(
            [
                "origin": JSONSchema.string(), "from": JSONSchema.string(), "to": JSONSchema.string(),
                "workouts": JSONSchema.array(
                    JSONSchema.object(
                        [
                            "activity": JSONSchema.string(), "local_day": JSONSchema.string(),
                            "start": JSONSchema.string("RFC 3339 at the workout's own UTC offset"),
                            "end": JSONSchema.string(), "duration_s": JSONSchema.number(), "energy": measure,
                            "distance": measure, "average_heart_rate_bpm": JSONSchema.number(),
                            "source": JSONSchema.string(),
                        ], required: ["activity", "local_day", "start", "end", "duration_s", "source"])),
                "truncated": JSONSchema.boolean(), "sources_used": JSONSchema.array(JSONSchema.string()),
            ], required: ["origin", "from", "to", "workouts", "truncated", "sources_used"])
    }()

    func answer(_ arguments: ToolArguments, in context: ToolContext) async throws -> ToolAnswer {
        guard context.access.permitsWorkouts else { throw ToolError("workouts are not exposed here") }
        let days = try arguments.days(defaultLast: context.today, defaultSpan: 90, maximumDays: DailyTool.maximumDays)
        let activity = try arguments.string("activity")?.lowercased()
        let starts = DailyRollupCalculator.sampleWindow(for: days)
        var matched: [Answer.Workout] = []
        var truncated = false
        for listing in try await context.reader.workouts(starts: starts) {
            let offset = listing.utcOffsetSeconds ?? 0
            let localDay = listing.start.adding(seconds: Int64(offset)).utcDay
            guard days.contains(localDay) else { continue }
            if let activity, !listing.activityType.lowercased().contains(activity) { continue }
            guard matched.count < Self.maximumWorkouts else {
                truncated = true
                break
            }
            matched.append(
                Answer.Workout(
                    activity: listing.activityType, localDay: localDay.description,
                    start: listing.start.iso8601(utcOffsetSeconds: offset),
                    end: listing.end.iso8601(utcOffsetSeconds: offset),
                    durationSeconds: listing.durationSeconds ?? listing.start.seconds(until: listing.end),
                    energy: listing.energy.map { Answer.Measure(value: $0.value, unit: $0.unit) },
                    distance: listing.distance.map { Answer.Measure(value: $0.value, unit: $0.unit) },
                    averageHeartRate: listing.averageHeartRate, source: listing.sourceName))
        }
        let answer = Answer(
            origin: context.reader.origin, from: days.lowerBound.description, to: days.upperBound.description,
            workouts: matched, truncated: truncated, sourcesUsed: Array(Set(matched.map(\.source))).sorted())
        var lines = [
            "\(matched.count) workouts, \(answer.from) to \(answer.to)" + (truncated ? " (truncated)" : "") + ":"
        ]
        for workout in matched.suffix(31) {
            var line = "\(workout.localDay) \(workout.activity): \(Int((workout.durationSeconds / 60).rounded())) min"
            if let distance = workout.distance { line += ", \(NumberText.short(distance.value)) \(distance.unit)" }
            if let energy = workout.energy { line += ", \(NumberText.short(energy.value)) \(energy.unit)" }
            lines.append(line)
        }
        return try ToolAnswer(answer, text: lines.joined(separator: "\n"))
    }
}
