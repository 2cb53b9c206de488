import HealthETLCore
import HealthETLWire
import MCP

/// `sleep`: the nights of a range with their stages, each from the one source that ranks first.
struct SleepTool: HealthTool {
    struct Answer: Encodable {
        let origin: String
        let unit: String
        let from: String
        let to: String
        let nights: [WireSleepNight]
        let sourcesUsed: [String]

        private enum CodingKeys: String, CodingKey {
            case origin, unit, from, to, nights
            case sourcesUsed = "sources_used"
        }
    }

    let name = "sleep"
    let description = """
        Sleep nights over a range (at most 3660), each keyed by the local day it ends on: time in \
        bed, asleep, and in the core, deep and REM stages and awake, in seconds, from the source \
        that ranks first that night. Defaults to the 14 nights ending today.
        """
    let inputSchema = JSONSchema.object([
        "from": JSONSchema.day("First night, as the local day it ends on, YYYY-MM-DD"),
        "to": JSONSchema.day("Last night, as the local day it ends on (default today)"),
    ])
    let outputSchema = JSONSchema.object(
        [
            "origin": JSONSchema.string(), "unit": JSONSchema.string(), "from": JSONSchema.string(),
            "to": JSONSchema.string(),
            "nights": JSONSchema.array(
                JSONSchema.object(
                    [
                        "night": JSONSchema.string(), "source": JSONSchema.string(), "start": JSONSchema.string(),
                        "end": JSONSchema.string(), "in_bed_s": JSONSchema.number(), "asleep_s": JSONSchema.number(),
                        "core_s": JSONSchema.number(), "deep_s": JSONSchema.number(), "rem_s": JSONSchema.number(),
                        "awake_s": JSONSchema.number(), "computed_at": JSONSchema.string(),
                    ], required: ["night", "source", "start", "end", "in_bed_s", "asleep_s"])),
            "sources_used": JSONSchema.array(JSONSchema.string()),
        ], required: ["origin", "unit", "from", "to", "nights", "sources_used"])

    func answer(_ arguments: ToolArguments, in context: ToolContext) async throws -> ToolAnswer {
        guard context.access.permits(SleepNightCalculator.metric) else {
            throw ToolError("sleep is not among the metrics exposed here")
        }
        let days = try arguments.days(defaultLast: context.today, defaultSpan: 14, maximumDays: DailyTool.maximumDays)
        let nights = try await context.reader.sleepNights(days: days)
        let answer = Answer(
            origin: context.reader.origin, unit: "s", from: days.lowerBound.description,
            to: days.upperBound.description,
            nights: nights.map { WireSleepNight($0, computedAt: $0.computedAt?.description ?? "") },
            sourcesUsed: Array(Set(nights.map(\.source))).sorted())
        var lines = ["\(nights.count) nights, \(answer.from) to \(answer.to):"]
        for night in nights.suffix(31) {
            lines.append(
                "\(night.night): asleep \(Self.hours(night.asleepSeconds)) (deep \(Self.hours(night.deepSeconds)), "
                    + "REM \(Self.hours(night.remSeconds)), core \(Self.hours(night.coreSeconds)), awake "
                    + "\(Self.hours(night.awakeSeconds))), in bed \(Self.hours(night.inBedSeconds))")
        }
        return try ToolAnswer(answer, text: lines.joined(separator: "\n"))
    }

    private static func hours(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return "\(minutes / 60) h \(minutes % 60) min"
    }
}
