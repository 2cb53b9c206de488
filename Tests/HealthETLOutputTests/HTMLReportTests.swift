import HealthETLCore
import Testing

@testable import HealthETLOutput

/// The assembled report: self-contained, escaped, and honest about empty sections.
@Suite struct HTMLReportTests {
    let first = CivilDate(year: 2025, month: 6, day: 1)!

    func data(source: String, withSamples: Bool) -> HTMLReportData {
        func series(_ metric: String, _ value: Double) -> HTMLReportData.Series {
            let rollups =
                withSamples
                ? [
                    DailyRollup(
                        metric: metric, day: first, average: value, count: 1, sources: [source], coverageSeconds: 0)
                ]
                : []
            return HTMLReportData.Series(metric: metric, title: metric, unit: "u", rollups: rollups)
        }
        return HTMLReportData(
            days: first...first.adding(days: 29), generatedAt: Instant(millisecondsSinceEpoch: 0),
            steps: series("step_count", 0), restingHeartRate: series("resting_heart_rate", 58),
            heartRateVariability: series("heart_rate_variability_sdnn", 61), weight: series("body_mass", 70),
            sleep: [], workouts: [],
            coverage: withSamples ? [SourceDayCount(source: source, day: first, samples: 3)] : [],
            quarantine: withSamples ? ["unknown_type": 2] : [:], flagged: [:])
    }

    @Test func itForbidsEveryRequestAndRunsNoScript() {
        let html = String(
            decoding: HTMLReportRenderer(data: data(source: "Watch", withSamples: true)).render(), as: UTF8.self)
        #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\""))
        #expect(!html.contains("<script"))
        #expect(
            !html.contains("http://")
                || !html.replacingOccurrences(of: "http://www.w3.org", with: "").contains("http://"))
        #expect(!html.contains("https://"))
    }

    @Test func namesFromTheDataAreEscaped() {
        let html = String(
            decoding: HTMLReportRenderer(data: data(source: "<script>alert(1)</script>", withSamples: true)).render(),
            as: UTF8.self)
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    @Test func emptySectionsSaySo() {
        let html = String(
            decoding: HTMLReportRenderer(data: data(source: "Watch", withSamples: false)).render(), as: UTF8.self)
        #expect(html.components(separatedBy: "No data in this range.").count - 1 == 7)
        #expect(html.contains("Nothing was quarantined"))
    }

    @Test func insightsAreListedWithTheirDaysAndNeverAsADiagnosis() {
        var report = data(source: "Watch", withSamples: true)
        #expect(
            String(decoding: HTMLReportRenderer(data: report).render(), as: UTF8.self).contains(
                "<section id=\"insights\"><h2>Above or below your usual</h2><p class=\"note\">Nothing unusual"))
        report.insights = [
            Insight(
                rule: "resting_heart_rate_above_usual", metric: "resting_heart_rate", first: first.adding(days: 3),
                last: first.adding(days: 4), baseline: 55, observed: 68, deviation: 9.2, unit: "bpm",
                text: "Resting heart rate above your usual on 2 days in a row: 68 bpm against a usual 55 bpm")
        ]
        let html = String(decoding: HTMLReportRenderer(data: report).render(), as: UTF8.self)
        #expect(
            html.contains(
                "<tr data-rule=\"resting_heart_rate_above_usual\" data-first=\"2025-06-04\" data-last=\"2025-06-05\">"))
        #expect(html.contains("2025-06-04 to 2025-06-05"))
        #expect(html.contains("68 bpm") && html.contains("55 bpm"))
        #expect(html.contains("not a diagnosis"))
    }
}
