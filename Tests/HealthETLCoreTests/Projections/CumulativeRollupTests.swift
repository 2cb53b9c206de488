import Foundation
import HealthETLCore
import Testing

extension ProjectionTests {
    /// Cumulative rollups: one source per time slice, samples split at local midnight.
    struct CumulativeRollupTests {
        typealias F = ProjectionFixtures

        func rollups(
            _ samples: [Sample], priority: SourcePriority = SourcePriority(), days: Set<CivilDate>? = nil
        ) -> [DailyRollup] {
            DailyRollupCalculator(metric: F.steps, priority: priority).rollups(for: samples, days: days)
        }

        /// A long sample is cut only across the days asked for, and those days come out exactly as
        /// when every day it spans is cut: at the widest offsets, and for samples ending before
        /// or starting after the range.
        @Test func aLongSampleIsCutOnlyAcrossTheDaysAskedFor() {
            for offset: Int32 in [-12, 0, 5, 14] {
                let samples = [
                    F.sample(
                        source: F.watch, from: "2024-01-01 07:30", to: "2024-12-01 18:00", value: 33_500,
                        utcOffsetHours: offset),
                    F.sample(
                        source: F.phone, from: "2024-06-09 22:00", to: "2024-06-10 03:00", value: 500,
                        utcOffsetHours: offset),
                    F.sample(
                        source: F.phone, from: "2024-01-01 00:00", to: "2024-01-02 00:00", value: 900,
                        utcOffsetHours: offset),
                ]
                let wanted: Set<CivilDate> = [F.day(2024, 6, 9), F.day(2024, 6, 10), F.day(2024, 6, 12)]
                let everyDay = rollups(samples).filter { wanted.contains($0.day) }
                #expect(everyDay.count == 3)
                #expect(rollups(samples, days: wanted) == everyDay, "offset \(offset)")
            }
        }

        /// Watch 08:00–08:10 (600) and phone 08:00–08:20 (1000) overlap; phone 09:00–09:10 (200) is alone.
        /// [08:00, 08:10): watch wins → 600 × 10/10 = 600
        /// [08:10, 08:20): only the phone → 1000 × 10/20 = 500
        /// [09:00, 09:10): only the phone → 200 × 10/10 = 200
        /// sum = 1300 (not 1800); coverage = 20 + 10 min = 1800 s
        static let watchAndPhone = [
            F.sample(source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 08:10", value: 600),
            F.sample(source: F.phone, from: "2024-03-01 08:00", to: "2024-03-01 08:20", value: 1000),
            F.sample(source: F.phone, from: "2024-03-01 09:00", to: "2024-03-01 09:10", value: 200),
        ]

        @Test func phoneFillsTheWatchsGapsWithoutDoubling() throws {
            let rollup = try #require(rollups(Self.watchAndPhone).first)
            #expect(rollup.day == F.day(2024, 3, 1))
            #expect(rollup.average == nil && rollup.maximum == nil)  // a cumulative metric is summed
            #expect(rollup.sum == 1300)
            #expect(rollup.count == 3)
            #expect(rollup.sources == [F.watch, F.phone])
            #expect(rollup.coverageSeconds == 1800)
            #expect(rollup.average == nil && rollup.latest == nil)
        }

        /// Two watch samples overlap on [08:05, 08:10): both are the watch's own data and count whole;
        /// the phone under them wins nothing. 100 + 100 = 200; coverage 08:00–08:15 = 900 s.
        @Test func overlappingSamplesOfTheWinningSourceAllCount() throws {
            let rollup = try #require(
                rollups([
                    F.sample(source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 08:10", value: 100),
                    F.sample(source: F.watch, from: "2024-03-01 08:05", to: "2024-03-01 08:15", value: 100),
                    F.sample(source: F.phone, from: "2024-03-01 08:02", to: "2024-03-01 08:12", value: 500),
                ]).first)
            #expect(rollup.sum == 200)
            #expect(rollup.count == 2)
            #expect(rollup.sources == [F.watch])
            #expect(rollup.coverageSeconds == 900)
        }

        /// Watch 08:00–09:00 (600), Oura 08:30–09:30 (300).
        /// Default (watch before other apps): 600 + Oura's [09:00, 09:30) 300 × 30/60 = 150 → 750.
        /// Oura preferred: 300 + the watch's [08:00, 08:30) 600 × 30/60 = 300 → 600.
        @Test func preferredSourceOverridesTheDefaultOrder() {
            let samples = [
                F.sample(source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 09:00", value: 600),
                F.sample(source: F.ring, from: "2024-03-01 08:30", to: "2024-03-01 09:30", value: 300),
            ]
            #expect(rollups(samples).first?.sum == 750)
            #expect(rollups(samples, priority: SourcePriority(preferred: [F.ring])).first?.sum == 600)
        }

        /// A manual entry 08:00–09:00 (1000) hides the watch's 08:30–08:45 (300) entirely.
        @Test func manualEntryOutranksTheWatch() throws {
            let rollup = try #require(
                rollups([
                    F.sample(
                        source: "Health", from: "2024-03-01 08:00", to: "2024-03-01 09:00", value: 1000,
                        userEntered: true),
                    F.sample(source: F.watch, from: "2024-03-01 08:30", to: "2024-03-01 08:45", value: 300),
                ]).first)
            #expect(rollup.sum == 1000)
            #expect(rollup.count == 1)
            #expect(rollup.sources == ["Health"])
        }

        /// 23:00 → 02:00 UTC, 900 steps over 3 h: 1 h on 03-01 → 300, 2 h on 03-02 → 600.
        @Test func sampleSpanningMidnightIsSplitProportionally() {
            let result = rollups([
                F.sample(source: F.phone, from: "2024-03-01 23:00", to: "2024-03-02 02:00", value: 900)
            ])
            #expect(result.map(\.day) == [F.day(2024, 3, 1), F.day(2024, 3, 2)])
            #expect(result.map(\.sum) == [300, 600])
            #expect(result.map(\.count) == [1, 1])
            #expect(result.map(\.coverageSeconds) == [3600, 7200])
        }

        /// Recorded offset −5 h: 04:30Z–06:00Z is 23:30–01:00 local. 30 of 90 min fall on 03-01:
        /// 900 × 30/90 = 300; 600 on 03-02. (Read as UTC it would all be on 03-02.)
        @Test func recordedOffsetDecidesWhereMidnightFalls() {
            let result = rollups([
                F.sample(
                    source: F.phone, from: "2024-03-02 04:30", to: "2024-03-02 06:00", value: 900,
                    utcOffsetHours: -5)
            ])
            #expect(result.map(\.day) == [F.day(2024, 3, 1), F.day(2024, 3, 2)])
            #expect(result.map(\.sum) == [300, 600])
        }

        /// Los Angeles springs forward on 2024-03-10 (02:00 PST → 03:00 PDT, at 10:00Z), so local
        /// 03-10 runs from 08:00Z (−8 h) to 03-11 07:00Z (−7 h): 23 hours.
        /// A 25 h sample 03-10 07:00Z → 03-11 08:00Z, 2500 steps (100 an hour):
        /// 03-09: 07:00–08:00Z = 1 h → 100; 03-10: 23 h → 2300; 03-11: 07:00–08:00Z = 1 h → 100.
        /// The recorded −8 h offset (a winter export) is overridden by `HKTimeZone`.
        @Test func zoneFromHKTimeZoneFollowsTheDaylightSavingChange() {
            let result = rollups([
                F.sample(
                    source: F.phone, from: "2024-03-10 07:00", to: "2024-03-11 08:00", value: 2500,
                    utcOffsetHours: -8, timeZone: "America/Los_Angeles")
            ])
            #expect(result.map(\.day) == [F.day(2024, 3, 9), F.day(2024, 3, 10), F.day(2024, 3, 11)])
            #expect(result.map(\.sum) == [100, 2300, 100])
            #expect(result.map(\.coverageSeconds) == [3600, 82_800, 3600])
        }

        /// After the change midnight is at 07:00Z: 06:30Z–08:30Z (800) puts 30 of 120 min on 03-10 →
        /// 200 and 600 on 03-11. At the fixed −8 h midnight would be 08:00Z, giving 600 and 200.
        @Test func midnightAfterTheChangeUsesTheNewOffset() {
            let result = rollups([
                F.sample(
                    source: F.phone, from: "2024-03-11 06:30", to: "2024-03-11 08:30", value: 800,
                    utcOffsetHours: -8, timeZone: "America/Los_Angeles")
            ])
            #expect(result.map(\.sum) == [200, 600])
        }

        /// Watch 08:00–09:00 (600). Zero-length samples count whole when their source is the best one
        /// covering or sitting on their instant:
        /// phone at 08:30 (50): the watch covers it → 0; watch at 08:30 (20): the watch wins → 20;
        /// phone at 09:00 (40): the watch's [08:00, 09:00) no longer covers it → 40.
        /// sum = 600 + 20 + 40 = 660; count 3; coverage only from the hour: 3600 s.
        @Test func zeroLengthSamplesCountWholeWhenTheirSourceWinsTheInstant() throws {
            let rollup = try #require(
                rollups([
                    F.sample(source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 09:00", value: 600),
                    F.sample(source: F.phone, from: "2024-03-01 08:30", to: "2024-03-01 08:30", value: 50),
                    F.sample(source: F.watch, from: "2024-03-01 08:30", to: "2024-03-01 08:30", value: 20),
                    F.sample(source: F.phone, from: "2024-03-01 09:00", to: "2024-03-01 09:00", value: 40),
                ]).first)
            #expect(rollup.sum == 660)
            #expect(rollup.count == 3)
            #expect(rollup.coverageSeconds == 3600)
        }

        /// Only the days asked for, with the same figures as a full computation.
        @Test func computesOnlyTheRequestedDays() {
            let samples =
                Self.watchAndPhone + [
                    F.sample(source: F.phone, from: "2024-03-01 23:00", to: "2024-03-02 02:00", value: 900)
                ]
            let all = rollups(samples)
            let second = rollups(samples, days: [F.day(2024, 3, 2)])
            #expect(second.map(\.day) == [F.day(2024, 3, 2)])
            #expect(second == all.filter { $0.day == F.day(2024, 3, 2) })
        }

        /// Other metrics in the input are ignored.
        @Test func ignoresOtherMetrics() {
            let samples =
                Self.watchAndPhone + [
                    F.sample(
                        "active_energy", source: F.watch, from: "2024-03-01 10:00", to: "2024-03-01 11:00",
                        value: 99)
                ]
            #expect(rollups(samples).first?.sum == 1300)
        }

        /// 2024-03-01 as UTC is [03-01 00:00Z, 03-02 00:00Z); widened by 14 h on each side.
        @Test func sampleWindowCoversEveryOffset() {
            #expect(
                DailyRollupCalculator.sampleWindow(for: F.day(2024, 3, 1))
                    == F.utc("2024-02-29 10:00")..<F.utc("2024-03-02 14:00"))
        }
    }
}
