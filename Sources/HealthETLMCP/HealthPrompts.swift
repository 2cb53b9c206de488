import HealthETLCore
import MCP

/// The two prompts: a weekly summary, and a comparison of two periods, each telling the model
/// which tools to call with which ranges.
struct HealthPrompts: Sendable {
    var list: [Prompt] {
        [
            Prompt(
                name: "weekly_summary", title: "Summarize a week",
                description: "A summary of one week's activity, sleep, heart and insights",
                arguments: [
                    .init(name: "week_ending", description: "The week's last local day, YYYY-MM-DD (default today)")
                ]),
            Prompt(
                name: "compare_periods", title: "Compare two periods",
                description: "How a metric (or the main ones) moved between two ranges of days",
                arguments: [
                    .init(name: "first_from", description: "First period's first day, YYYY-MM-DD", required: true),
                    .init(name: "first_to", description: "First period's last day", required: true),
                    .init(name: "second_from", description: "Second period's first day", required: true),
                    .init(name: "second_to", description: "Second period's last day", required: true),
                    .init(name: "metric", description: "One metric to compare (default: the main ones)"),
                ]),
        ]
    }

    func get(_ name: String, arguments: [String: String]?, today: CivilDate) throws -> GetPrompt.Result {
        let arguments = arguments ?? [:]
        switch name {
        case "weekly_summary":
            let last = try day(arguments["week_ending"], "week_ending") ?? today
            let first = last.adding(days: -6)
            return GetPrompt.Result(
                description: "Weekly summary, \(first) to \(last)",
                messages: [
                    .user(
                        .text(
                            text: """
                                Summarize my health week from \(first) to \(last) using the healthetl tools. \
                                Call daily with from \(first) and to \(last) for step_count, \
                                active_energy_burned and resting_heart_rate; sleep for the same range; \
                                workouts for the same range; and insights for the same range. Compare each \
                                figure with the 28-day baselines insights gives. Say which sources the \
                                figures came from, keep units, and describe the data without diagnosing.
                                """))
                ])
        case "compare_periods":
            let first = try period(arguments, "first")
            let second = try period(arguments, "second")
            let subject =
                arguments["metric"].map { "the metric \($0)" }
                ?? "step_count, resting_heart_rate, heart_rate_variability_sdnn and sleep"
            return GetPrompt.Result(
                description:
                    "Compare \(first.lowerBound)–\(first.upperBound) with \(second.lowerBound)–\(second.upperBound)",
                messages: [
                    .user(
                        .text(
                            text: """
                                Compare \(subject) between \(first.lowerBound) to \(first.upperBound) and \
                                \(second.lowerBound) to \(second.upperBound), using the healthetl tools: \
                                call daily (and sleep for sleep) once per period with those from and to \
                                days, then give each period's mean per day, the change between them in \
                                units and in percent, and how many days each period had data for. Name the \
                                sources used. Describe the data without diagnosing.
                                """))
                ])
        default:
            throw MCPError.invalidParams(
                "no prompt named \(QuotedName.of(name)); the prompts are weekly_summary and compare_periods")
        }
    }

    private func period(_ arguments: [String: String], _ prefix: String) throws -> ClosedRange<CivilDate> {
        guard let from = try day(arguments["\(prefix)_from"], "\(prefix)_from"),
            let to = try day(arguments["\(prefix)_to"], "\(prefix)_to")
        else { throw MCPError.invalidParams("\(prefix)_from and \(prefix)_to are required, YYYY-MM-DD") }
        guard from <= to else { throw MCPError.invalidParams("\(prefix)_from must not be after \(prefix)_to") }
        return from...to
    }

    private func day(_ text: String?, _ name: String) throws -> CivilDate? {
        guard let text else { return nil }
        guard let day = CivilDate(text: text) else { throw MCPError.invalidParams("\(name) must be YYYY-MM-DD") }
        return day
    }
}
