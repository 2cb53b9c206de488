import HealthETLCore

/// The self-contained HTML report: one file, no script, no request to anywhere (its content
/// security policy forbids them), charts drawn as inline SVG here.
public struct HTMLReportRenderer {
    public let data: HTMLReportData

    public init(data: HTMLReportData) {
        self.data = data
    }

    public func render() -> [UInt8] {
        var html: [UInt8] = []
        html.reserveCapacity(256 * 1024)
        appendHead(to: &html)
        appendSummary(to: &html)
        appendStepsSection(to: &html)
        appendLineSection(
            id: "resting-heart-rate", data.restingHeartRate, decimals: 0,
            note: "The day's average of the resting heart rate readings.", to: &html)
        appendLineSection(
            id: "hrv", data.heartRateVariability, decimals: 0,
            note: "Heart rate variability (SDNN): the day's average.", to: &html)
        appendSleepSection(to: &html)
        appendInsights(to: &html)
        appendLineSection(id: "weight", data.weight, decimals: 1, note: "The day's average weight.", to: &html)
        appendWorkouts(to: &html)
        appendCoverage(to: &html)
        appendQuality(to: &html)
        ByteText.append(
            "<footer>Made by healthetl from the local store. The daily figures are the rollups <code>healthetl projections --local</code> computes: source priority applied, each day local to where it was recorded. Not a diagnosis.</footer></body></html>\n",
            to: &html)
        return html
    }

    private var title: String { "Health report \(data.days.lowerBound) to \(data.days.upperBound)" }

    private func appendHead(to html: inout [UInt8]) {
        ByteText.append(
            """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark"><meta name="referrer" content="no-referrer">
            <title>
            """, to: &html)
        HTMLText.append(escaping: title, to: &html)
        ByteText.append("</title><style>", to: &html)
        ByteText.append(ReportStyle.css, to: &html)
        ByteText.append("</style></head><body><header><h1>Health report</h1><p class=\"meta\">", to: &html)
        let sources = Set(data.coverage.map(\.source)).count
        let samples = data.coverage.reduce(0) { $0 + $1.samples }
        HTMLText.append(
            escaping:
                "\(data.days.lowerBound) to \(data.days.upperBound) (\(data.days.dayCount) days) · \(HTMLText.figure(Double(samples))) samples from \(sources) sources · generated \(data.generatedAt)",
            to: &html)
        ByteText.append("</p></header>", to: &html)
    }

    private func appendSummary(to html: inout [UInt8]) {
        func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
        func values(_ series: HTMLReportData.Series) -> [Double] {
            series.rollups.compactMap(HTMLReportData.Series.value)
        }
        let cards: [(String, String?)] = [
            ("Steps, daily average", mean(values(data.steps)).map { HTMLText.figure($0) }),
            ("Resting heart rate", mean(values(data.restingHeartRate)).map { HTMLText.figure($0) + " bpm" }),
            ("HRV (SDNN)", mean(values(data.heartRateVariability)).map { HTMLText.figure($0) + " ms" }),
            ("Sleep, nightly average", mean(data.sleep.map(\.asleepSeconds)).map(HTMLText.hours)),
            ("Weight, latest", values(data.weight).last.map { HTMLText.figure($0, decimals: 1) + " kg" }),
            ("Workouts", String(data.workouts.count)),
        ]
        ByteText.append("<section id=\"summary\"><div class=\"cards\">", to: &html)
        for (label, value) in cards {
            ByteText.append("<div class=\"card\"><div class=\"label\">", to: &html)
            HTMLText.append(escaping: label, to: &html)
            ByteText.append("</div><div class=\"value\">", to: &html)
            HTMLText.append(escaping: value ?? "–", to: &html)
            ByteText.append("</div></div>", to: &html)
        }
        ByteText.append("</div></section>", to: &html)
    }

    private func appendStepsSection(to html: inout [UInt8]) {
        openSection(id: "steps", title: data.steps.title, to: &html)
        guard !data.steps.rollups.isEmpty else { return closeEmpty(to: &html) }
        let chart = StackedBarChart(series: data.steps, days: data.days)
        appendLegend(
            chart.sources.prefix(ReportColours.sources).enumerated().map { ("s\($0)", $1) }, to: &html)
        chart.append(to: &html)
        closeSection(
            note: "Each bar is the day's count after source priority, split by the source each part was counted from.",
            to: &html)
    }

    private func appendLineSection(
        id: String, _ series: HTMLReportData.Series, decimals: Int, note: String, to html: inout [UInt8]
    ) {
        openSection(id: id, title: series.title, to: &html)
        guard !series.rollups.isEmpty else { return closeEmpty(to: &html) }
        LineChart(series: series, days: data.days, decimals: decimals).append(to: &html)
        closeSection(note: note, to: &html)
    }

    private func appendSleepSection(to html: inout [UInt8]) {
        openSection(id: "sleep", title: "Sleep", to: &html)
        guard !data.sleep.isEmpty else { return closeEmpty(to: &html) }
        appendLegend(SleepChart.stages.map { ($0.name, $0.label) }, to: &html)
        SleepChart(nights: data.sleep, days: data.days).append(to: &html)
        closeSection(
            note: "Each night is dated by the morning it ends on, read from one source (the best by priority).",
            to: &html)
    }

    /// Workouts listed one by one, latest first, up to this many; all of them are in the totals.
    static let listedWorkouts = 100

    private func appendWorkouts(to html: inout [UInt8]) {
        openSection(id: "workouts", title: "Workouts", to: &html)
        guard !data.workouts.isEmpty else { return closeEmpty(to: &html) }
        appendWorkoutTotals(to: &html)
        ByteText.append(
            "<table><thead><tr><th>Start</th><th>Activity</th><th class=\"n\">Duration</th><th class=\"n\">Energy</th><th class=\"n\">Distance</th><th class=\"n\">Avg HR</th><th>Source</th></tr></thead><tbody>",
            to: &html)
        var time = TimeText()
        for workout in data.workouts.suffix(Self.listedWorkouts).reversed() {
            let cells: [(String, Bool)] = [
                (Self.activityName(workout.activityType), false),
                (HTMLText.hours(Self.duration(of: workout)), true),
                (workout.energy.map { HTMLText.figure($0.value) + " " + $0.unit } ?? "", true),
                (workout.distance.map { HTMLText.figure($0.value, decimals: 2) + " " + $0.unit } ?? "", true),
                (workout.averageHeartRate.map { HTMLText.figure($0) + " bpm" } ?? "", true),
                (workout.sourceName, false),
            ]
            ByteText.append("<tr><td>", to: &html)
            time.appendLocal(workout.start, offset: workout.utcOffsetSeconds, to: &html)
            ByteText.append("</td>", to: &html)
            appendCells(cells, to: &html)
            ByteText.append("</tr>", to: &html)
        }
        ByteText.append("</tbody></table>", to: &html)
        let earlier = data.workouts.count - Self.listedWorkouts
        closeSection(
            note:
                "Latest first\(earlier > 0 ? " (the \(Self.listedWorkouts) latest; \(earlier) earlier ones are in the totals above)" : ""); times are local to where each workout was recorded.",
            to: &html)
    }

    /// Per activity: how many, and their time, energy and distance together (per unit as the
    /// workouts were written: kcal and kJ are not added up).
    private func appendWorkoutTotals(to html: inout [UInt8]) {
        struct Total {
            var count = 0
            var seconds = 0.0
            var energy: [String: Double] = [:]
            var distance: [String: Double] = [:]
        }
        var totals: [String: Total] = [:]
        for workout in data.workouts {
            let name = Self.activityName(workout.activityType)
            var total = totals[name] ?? Total()
            total.count += 1
            total.seconds += Self.duration(of: workout)
            if let energy = workout.energy { total.energy[energy.unit, default: 0] += energy.value }
            if let distance = workout.distance { total.distance[distance.unit, default: 0] += distance.value }
            totals[name] = total
        }
        func sums(_ byUnit: [String: Double], decimals: Int) -> String {
            byUnit.sorted { $0.key < $1.key }.map { HTMLText.figure($0.value, decimals: decimals) + " " + $0.key }
                .joined(separator: " + ")
        }
        ByteText.append(
            "<table class=\"totals\"><thead><tr><th>Activity</th><th class=\"n\">Workouts</th><th class=\"n\">Time</th><th class=\"n\">Energy</th><th class=\"n\">Distance</th></tr></thead><tbody>",
            to: &html)
        for (name, total) in totals.sorted(by: { ($1.value.count, $0.key) < ($0.value.count, $1.key) }) {
            ByteText.append("<tr>", to: &html)
            appendCells(
                [
                    (name, false), (String(total.count), true), (HTMLText.hours(total.seconds), true),
                    (sums(total.energy, decimals: 0), true), (sums(total.distance, decimals: 1), true),
                ], to: &html)
            ByteText.append("</tr>", to: &html)
        }
        ByteText.append("</tbody></table><p></p>", to: &html)
    }

    private func appendCells(_ cells: [(text: String, numeric: Bool)], to html: inout [UInt8]) {
        for cell in cells {
            ByteText.append(cell.numeric ? "<td class=\"n\">" : "<td>", to: &html)
            HTMLText.append(escaping: cell.text, to: &html)
            ByteText.append("</td>", to: &html)
        }
    }

    private static func duration(of workout: WorkoutListing) -> Double {
        workout.durationSeconds ?? workout.start.seconds(until: workout.end)
    }

    private func appendInsights(to html: inout [UInt8]) {
        openSection(id: "insights", title: "Above or below your usual", to: &html)
        let note =
            "Each day is compared with your own previous 28 days (the median, and the median absolute deviation as the spread; at least 14 days of data). The rules are listed in healthetl's Docs/insights.md. These describe your data; they are not a diagnosis."
        guard !data.insights.isEmpty else {
            return closeSection(note: "Nothing unusual in this range. " + note, to: &html)
        }
        ByteText.append(
            "<table><thead><tr><th>Days</th><th>What</th><th class=\"n\">Observed</th><th class=\"n\">Usual</th></tr></thead><tbody>",
            to: &html)
        for insight in data.insights {
            ByteText.append("<tr data-rule=\"", to: &html)
            HTMLText.append(escaping: insight.rule, to: &html)
            ByteText.append("\" data-first=\"\(insight.first)\" data-last=\"\(insight.last)\">", to: &html)
            let days = insight.first == insight.last ? "\(insight.first)" : "\(insight.first) to \(insight.last)"
            let decimals = insight.unit == "h" ? 1 : 0
            appendCells(
                [
                    (days, false), (insight.text, false),
                    (HTMLText.figure(insight.observed, decimals: decimals) + " " + insight.unit, true),
                    (HTMLText.figure(insight.baseline, decimals: decimals) + " " + insight.unit, true),
                ], to: &html)
            ByteText.append("</tr>", to: &html)
        }
        ByteText.append("</tbody></table>", to: &html)
        closeSection(note: note, to: &html)
    }

    private func appendCoverage(to html: inout [UInt8]) {
        openSection(id: "coverage", title: "Data coverage", to: &html)
        guard !data.coverage.isEmpty else { return closeEmpty(to: &html) }
        let chart = CoverageChart(counts: data.coverage, days: data.days)
        chart.append(to: &html)
        let gaps = chart.gaps()
        if gaps.isEmpty {
            closeSection(note: "Every day of the range has data.", to: &html)
        } else {
            let listed = gaps.prefix(8).map { "\($0.first) to \($0.last) (\($0.days) days)" }.joined(separator: "; ")
            closeSection(
                note:
                    "Days without any data, longest first: \(listed)\(gaps.count > 8 ? "; and \(gaps.count - 8) more" : "").",
                to: &html)
        }
    }

    private func appendQuality(to html: inout [UInt8]) {
        openSection(id: "quality", title: "Import quality", to: &html)
        let rows =
            data.quarantine.sorted { $0.key < $1.key }.map { ("Quarantined", $0.key, $0.value) }
            + data.flagged.sorted { $0.key < $1.key }.map { ("Flagged for review", $0.key, $0.value) }
        guard !rows.isEmpty else {
            return closeSection(note: "Nothing was quarantined and no sample in the range is flagged.", to: &html)
        }
        ByteText.append(
            "<table><thead><tr><th>Outcome</th><th>Reason</th><th class=\"n\">Records</th></tr></thead><tbody>",
            to: &html)
        for (outcome, reason, count) in rows {
            ByteText.append("<tr>", to: &html)
            appendCells([(outcome, false), (reason, false), (HTMLText.figure(Double(count)), true)], to: &html)
            ByteText.append("</tr>", to: &html)
        }
        ByteText.append("</tbody></table>", to: &html)
        closeSection(
            note:
                "Quarantined records (over every import into this store) were kept aside with their reason; flagged samples (in this range) are stored and counted.",
            to: &html)
    }

    private func appendLegend(_ entries: [(styleClass: String, label: String)], to html: inout [UInt8]) {
        ByteText.append("<div class=\"legend\">", to: &html)
        for entry in entries {
            ByteText.append("<span><i class=\"swatch\" style=\"background:var(--", to: &html)
            ByteText.append(entry.styleClass, to: &html)
            ByteText.append(")\"></i>", to: &html)
            HTMLText.append(escaping: entry.label, to: &html)
            ByteText.append("</span>", to: &html)
        }
        ByteText.append("</div>", to: &html)
    }

    private func openSection(id: String, title: String, to html: inout [UInt8]) {
        ByteText.append("<section id=\"\(id)\"><h2>", to: &html)
        HTMLText.append(escaping: title, to: &html)
        ByteText.append("</h2>", to: &html)
    }

    private func closeSection(note: String, to html: inout [UInt8]) {
        ByteText.append("<p class=\"note\">", to: &html)
        HTMLText.append(escaping: note, to: &html)
        ByteText.append("</p></section>", to: &html)
    }

    private func closeEmpty(to html: inout [UInt8]) {
        ByteText.append("<p class=\"empty\">No data in this range.</p></section>", to: &html)
    }

    /// `HKWorkoutActivityTypeTraditionalStrengthTraining` → `Traditional strength training`;
    /// `cycling` → `Cycling`.
    static func activityName(_ type: String) -> String {
        let name = type.hasPrefix("HKWorkoutActivityType") ? String(type.dropFirst(21)) : type
        var words: [String] = []
        var word = ""
        for character in name {
            if character == "_" || (character.isUppercase && !word.isEmpty && !(word.last?.isUppercase ?? false)) {
                if !word.isEmpty { words.append(word) }
                word = character == "_" ? "" : String(character)
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        let sentence = words.map { $0.count > 1 && $0.allSatisfy(\.isUppercase) ? $0 : $0.lowercased() }.joined(
            separator: " ")
        return sentence.prefix(1).uppercased() + sentence.dropFirst()
    }
}
