import Foundation
import HealthETLCore
import Testing

extension ProjectionTests {
    /// Baselines, deviations, trends and the documented rules, on generated series with anomalies
    /// planted at known days: each is found exactly, and nothing is found on flat, noisy or short
    /// series.
    struct InsightCalculatorTests {
        let calculator = InsightCalculator()
        static let start = CivilDate(year: 2025, month: 1, day: 1)!

        /// `days` days from `start`, each value from `value(index)`; nil leaves a day out.
        static func series(days: Int, _ value: (Int) -> Double?) -> [CivilDate: Double] {
            var series: [CivilDate: Double] = [:]
            for index in 0..<days {
                if let figure = value(index) { series[start.adding(days: Int64(index))] = figure }
            }
            return series
        }

        /// A deterministic wobble of ±`amplitude` around `base`.
        static func noisy(_ base: Double, amplitude: Double, seed: Int) -> (Int) -> Double {
            { index in base + amplitude * sin(Double(index * 7 + seed) * 1.3) }
        }

        func insights(_ values: [String: [CivilDate: Double]], days: Int = 120) -> [Insight] {
            let range = Self.start...Self.start.adding(days: Int64(days - 1))
            return calculator.insights(from: calculator.days(values: values, in: range))
        }

        func day(_ index: Int) -> CivilDate { Self.start.adding(days: Int64(index)) }

        @Test func restingHeartRateTwoDaysAboveUsualIsFoundOnExactlyThoseDays() {
            let planted = Set([60, 61, 90])  // a two-day run, and a single day that must not count
            let heart = Self.series(days: 120) { index in
                planted.contains(index) ? 68 : Self.noisy(55, amplitude: 1.5, seed: 1)(index)
            }
            let found = insights(["resting_heart_rate": heart])
            #expect(found.count == 1)
            let insight = try! #require(found.first)
            #expect(insight.rule == "resting_heart_rate_above_usual")
            #expect(insight.first == day(60) && insight.last == day(61))
            #expect(insight.observed == 68)
            #expect(abs(insight.baseline - 55) < 1.5)
            #expect(insight.deviation >= 3)
            #expect(insight.text.contains("above your usual") && !insight.text.lowercased().contains("diagnos"))
        }

        @Test func aRiseOfLessThanFiveBeatsIsNotAnInsightHoweverManyMADs() {
            // A very regular series: +4 bpm is many MADs but less than the rule's 5 bpm.
            let heart = Self.series(days: 100) { index in (70...72).contains(index) ? 59 : 55 }
            #expect(insights(["resting_heart_rate": heart], days: 100).isEmpty)
            let higher = Self.series(days: 100) { index in (70...72).contains(index) ? 61 : 55 }
            let found = insights(["resting_heart_rate": higher], days: 100)
            #expect(found.map(\.first) == [day(70)] && found.map(\.last) == [day(72)])
        }

        @Test func hrvTwoDaysBelowUsualIsFound() {
            let hrv = Self.series(days: 100) { index in
                (50...51).contains(index) ? 20 : Self.noisy(48, amplitude: 4, seed: 2)(index)
            }
            let found = insights(["heart_rate_variability_sdnn": hrv], days: 100)
            #expect(found.map(\.rule) == ["hrv_below_usual"])
            #expect(found.first?.first == day(50) && found.first?.last == day(51))
            #expect((found.first?.deviation ?? 0) <= -3)
        }

        @Test func sleepNeedsThreeShortNightsInARow() {
            // Two short nights, then three: only the three make an insight.
            let short = Set([40, 41, 70, 71, 72])
            let sleep = Self.series(days: 100) { index in
                short.contains(index) ? 5.5 : Self.noisy(7.5, amplitude: 0.3, seed: 3)(index)
            }
            let found = insights([SleepNightCalculator.metric: sleep], days: 100)
            #expect(found.map(\.rule) == ["sleep_below_usual"])
            #expect(found.first?.first == day(70) && found.first?.last == day(72))
            #expect(found.first?.unit == "h")
        }

        @Test func stepsTrendDownIsFoundWhenTheWeekFallsAThirdBelowTheMonth() {
            // 10,000 a day, then 4,500 a day from day 80: the week's mean is 30 % below the month's
            // from day 84 (5 low days in the week: 6,071 against 0.7 × 9,018) to day 97 (18 low days
            // in the month: 4,500 against 0.7 × 6,464), when the month has caught up.
            let steps = Self.series(days: 120) { index in index >= 80 ? 4_500 : 10_000 }
            let found = insights(["step_count": steps])
            #expect(found.map(\.rule) == ["steps_trend_down"])
            let insight = try! #require(found.first)
            #expect(insight.first == day(84) && insight.last == day(97))
            #expect(insight.observed == 4_500 && insight.deviation <= -0.30)
        }

        @Test func flatNoisyAndShortSeriesMakeNoInsight() {
            let flat: [String: [CivilDate: Double]] = [
                "resting_heart_rate": Self.series(days: 120) { _ in 55 },
                "heart_rate_variability_sdnn": Self.series(days: 120) { _ in 45 },
                SleepNightCalculator.metric: Self.series(days: 120) { _ in 7.5 },
                "step_count": Self.series(days: 120) { _ in 9_000 },
            ]
            #expect(insights(flat).isEmpty)
            let noisy: [String: [CivilDate: Double]] = [
                "resting_heart_rate": Self.series(days: 120, Self.noisy(55, amplitude: 2, seed: 4)),
                "heart_rate_variability_sdnn": Self.series(days: 120, Self.noisy(45, amplitude: 6, seed: 5)),
                SleepNightCalculator.metric: Self.series(days: 120, Self.noisy(7.5, amplitude: 0.5, seed: 6)),
                "step_count": Self.series(days: 120, Self.noisy(9_000, amplitude: 1_500, seed: 7)),
            ]
            #expect(insights(noisy).isEmpty)
            // Twelve and thirteen days of data before a huge jump: no baseline, so nothing to deviate from.
            let short = Self.series(days: 16) { index in index < 12 ? 55 : (index < 14 ? 90 : nil) }
            let figures = calculator.days(values: ["resting_heart_rate": short], in: day(0)...day(15))
            #expect(figures.allSatisfy { $0.baseline == nil && $0.deviation == nil })
            #expect(calculator.insights(from: figures).isEmpty)
        }

        @Test func aBaselineNeedsFourteenOfTheTwentyEightDaysBefore() {
            // Every other day has a value: 14 of the 28 days before day 28, 13 before day 27.
            let sparse = Self.series(days: 40) { index in index % 2 == 0 ? 50 + Double(index % 3) : nil }
            let figures = calculator.days(values: ["resting_heart_rate": sparse], in: day(26)...day(30))
            let byDay = Dictionary(uniqueKeysWithValues: figures.map { ($0.day, $0) })
            #expect(byDay[day(26)]?.baseline == nil)
            #expect(byDay[day(28)]?.baseline?.days == 14)
            #expect(byDay[day(27)] == nil)  // no value that day, no figures
        }

        @Test func aDayDependsOnlyOnItsFiftySixDaysBefore() {
            // The same series with different data more than 56 days before the range: equal figures.
            let base = Self.noisy(55, amplitude: 2, seed: 8)
            let one = Self.series(days: 150) { index in index == 80 || index == 81 ? 70 : base(index) }
            let other = Self.series(days: 150) { index in
                index < 20 ? 99 : (index == 80 || index == 81 ? 70 : base(index))
            }
            let range = day(80)...day(149)
            #expect(
                calculator.days(values: ["resting_heart_rate": one], in: range)
                    == calculator.days(values: ["resting_heart_rate": other], in: range))
        }

        @Test func aRunStillGoingAtTheEndOfTheRangeEndsThere() {
            let heart = Self.series(days: 100) { index in
                index >= 60 ? 70 : Self.noisy(55, amplitude: 1, seed: 9)(index)
            }
            // Days 60... are all high: the run is reported up to the range's end, from its first day.
            let figures = calculator.days(values: ["resting_heart_rate": heart], in: day(61)...day(64))
            let found = calculator.insights(from: figures)
            #expect(found.count == 1)
            #expect(found.first?.first == day(60) && found.first?.last == day(64))
        }

        @Test func figuresSurviveTheirJSONForm() throws {
            let heart = Self.series(days: 60) { index in index == 50 || index == 51 ? 68 : 55 + Double(index % 3) }
            let figures = calculator.days(values: ["resting_heart_rate": heart], in: day(40)...day(59))
            let encoded = try JSONEncoder().encode(figures)
            #expect(try JSONDecoder().decode([InsightDay].self, from: encoded) == figures)
            let found = calculator.insights(from: figures)
            #expect(try JSONDecoder().decode([Insight].self, from: try JSONEncoder().encode(found)) == found)
        }
    }
}
