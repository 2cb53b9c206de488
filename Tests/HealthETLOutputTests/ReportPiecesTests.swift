import HealthETLCore
import Testing

@testable import HealthETLOutput

/// The report's drawing pieces: scales, trends, coverage runs and gaps, names.
@Suite struct ReportPiecesTests {
    let first = CivilDate(year: 2024, month: 1, day: 1)!

    @Test(arguments: [(23_880.0, 5_000.0), (1.0, 0.2), (16.0, 5.0), (950.0, 200.0), (3.0, 1.0)])
    func gridStepsAreRoundAndGiveAFewLines(span: Double, step: Double) {
        let found = ChartFrame.gridStep(for: span)
        #expect(abs(found - step) < 1e-9)
        #expect(span / found <= 5)
    }

    @Test func theScaleCoversTheValuesAndDaysHaveSlots() {
        let frame = ChartFrame(days: first...first.adding(days: 9), low: 0, high: 23_880)
        #expect(frame.minimum == 0 && frame.maximum == 25_000)
        #expect(frame.dayCount == 10)
        #expect(frame.y(frame.maximum) < frame.y(frame.minimum))
        #expect(frame.x(1) - frame.x(0) == frame.slot)
    }

    @Test func weeklyMeansNeedThreeDaysOfTheLastSeven() {
        let points = [(0, 10.0), (1, 20.0), (2, 30.0), (9, 40.0), (10, 50.0), (11, 60.0)].map {
            (first.adding(days: Int64($0.0)), $0.1)
        }
        let means = LineChart.weeklyMeans(points)
        #expect(means.map(\.0) == [first.adding(days: 2), first.adding(days: 11)])
        #expect(means.map(\.1) == [20, 50])
    }

    @Test func coverageFindsRunsAndTheLongestGapsFirst() {
        let days = first...first.adding(days: 19)
        let counts =
            [0, 1, 2, 6, 7, 15].map { SourceDayCount(source: "Watch", day: first.adding(days: Int64($0)), samples: 10) }
            + [SourceDayCount(source: "Phone", day: first.adding(days: 3), samples: 4)]
        let chart = CoverageChart(counts: counts, days: days)
        let rows = chart.rows
        #expect(rows.map(\.label) == ["Any source", "Phone", "Watch"])
        #expect(rows[0].runs.map { [$0.first, $0.last, $0.samples] } == [[0, 3, 34], [6, 7, 20], [15, 15, 10]])
        let gaps = chart.gaps()
        #expect(gaps.map(\.days) == [7, 4, 2])
        #expect(gaps[0].first == first.adding(days: 8) && gaps[0].last == first.adding(days: 14))
        #expect(gaps[1].first == first.adding(days: 16) && gaps[1].last == first.adding(days: 19))
    }

    @Test func aBarsPartsAddUpToTheDayAndCarryItsData() {
        var rollup = DailyRollup(
            metric: "step_count", day: first, sum: 9_000, count: 3, sources: ["A", "B"], coverageSeconds: 60)
        rollup.sumBySource = ["A": 6_000, "B": 3_000]
        let series = HTMLReportData.Series(metric: "step_count", title: "Daily steps", unit: "steps", rollups: [rollup])
        let chart = StackedBarChart(series: series, days: first...first.adding(days: 6))
        #expect(chart.sources == ["A", "B"])
        var bytes: [UInt8] = []
        chart.append(to: &bytes)
        let svg = String(decoding: bytes, as: UTF8.self)
        #expect(svg.contains("<g data-metric=\"step_count\" data-day=\"2024-01-01\" data-value=\"9000\">"))
        #expect(svg.components(separatedBy: "<rect class=\"s").count - 1 == 2)
    }

    @Test(arguments: [
        ("HKWorkoutActivityTypeTraditionalStrengthTraining", "Traditional strength training"),
        ("HKWorkoutActivityTypeHighIntensityIntervalTraining", "High intensity interval training"),
        ("cycling", "Cycling"), ("outdoor_run", "Outdoor run"),
    ])
    func activityNamesReadAsWords(type: String, name: String) {
        #expect(HTMLReportRenderer.activityName(type) == name)
    }
}
