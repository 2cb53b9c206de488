import Foundation
import HealthETLCore
import Testing

extension ProjectionTests {
    struct SleepNightCalculatorTests {
        typealias F = ProjectionFixtures

        func nights(_ samples: [Sample], priority: SourcePriority = SourcePriority()) -> [SleepNight] {
            SleepNightCalculator(priority: priority).nights(for: samples)
        }

        /// The watch writes a generic asleep 23:00–07:00 and stages inside it:
        /// core 23:00–01:00 and 03:00–06:30 (2 h + 3.5 h = 19_800 s), deep 01:00–02:00 (3600 s),
        /// rem 02:00–03:00 (3600 s). The generic one is dropped: asleep = 23:00–06:30 = 7.5 h = 27_000 s
        /// (8 h had it counted). In bed 22:45–07:10 ∪ asleep = 8 h 25 min = 30_300 s.
        static let stagedNight = [
            F.sleep("in_bed", from: "2024-03-01 22:45", to: "2024-03-02 07:10"),
            F.sleep("asleep_unspecified", from: "2024-03-01 23:00", to: "2024-03-02 07:00"),
            F.sleep("asleep_core", from: "2024-03-01 23:00", to: "2024-03-02 01:00"),
            F.sleep("asleep_deep", from: "2024-03-02 01:00", to: "2024-03-02 02:00"),
            F.sleep("asleep_rem", from: "2024-03-02 02:00", to: "2024-03-02 03:00"),
            F.sleep("asleep_core", from: "2024-03-02 03:00", to: "2024-03-02 06:30"),
            F.sleep("out_of_bed", from: "2024-03-02 07:10", to: "2024-03-02 07:30"),
        ]

        @Test func genericAsleepIsDroppedWhenTheSourceWroteStages() throws {
            let night = try #require(nights(Self.stagedNight).first)
            #expect(night.night == F.day(2024, 3, 2))
            #expect(night.source == F.watch)
            #expect(night.asleepSeconds == 27_000)
            #expect(night.coreSeconds == 19_800)
            #expect(night.deepSeconds == 3600)
            #expect(night.remSeconds == 3600)
            #expect(night.inBedSeconds == 30_300)
            #expect(night.awakeSeconds == 0)
            // out_of_bed is ignored, so the night ends with in_bed at 07:10
            #expect(night.start == F.utc("2024-03-01 22:45"))
            #expect(night.end == F.utc("2024-03-02 07:10"))
        }

        /// Asleep 23:00–07:00 (8 h); awake 02:00–02:30 (inside) and 06:50–07:20 (10 min inside).
        /// asleep = 28_800 − 1800 − 600 = 26_400 s; awake = 30 + 30 min = 3600 s;
        /// in bed = asleep's union only (awake is not in bed by this rule) = 28_800 s; ends 07:20.
        @Test func awakeInsideAsleepIsSubtracted() throws {
            let night = try #require(
                nights([
                    F.sleep(
                        "asleep_unspecified", source: F.phone, from: "2024-03-01 23:00",
                        to: "2024-03-02 07:00"),
                    F.sleep("awake", source: F.phone, from: "2024-03-02 02:00", to: "2024-03-02 02:30"),
                    F.sleep("awake", source: F.phone, from: "2024-03-02 06:50", to: "2024-03-02 07:20"),
                ]).first)
            #expect(night.asleepSeconds == 26_400)
            #expect(night.awakeSeconds == 3600)
            #expect(night.inBedSeconds == 28_800)
            #expect(night.coreSeconds == 0)
            #expect(night.end == F.utc("2024-03-02 07:20"))
        }

        /// Watch core 23:00–06:00 (7 h), Oura asleep 22:30–06:30 (8 h), phone in bed 22:00–07:00.
        /// One source per night: the watch by default (25_200 s), Oura when preferred (28_800 s);
        /// never 15 h.
        static let threeSources = [
            F.sleep("asleep_core", source: F.watch, from: "2024-03-01 23:00", to: "2024-03-02 06:00"),
            F.sleep("asleep_unspecified", source: F.ring, from: "2024-03-01 22:30", to: "2024-03-02 06:30"),
            F.sleep("in_bed", source: F.phone, from: "2024-03-01 22:00", to: "2024-03-02 07:00"),
        ]

        @Test func onlyTheBestSourceCountsForANight() throws {
            let byDefault = try #require(nights(Self.threeSources).first)
            #expect(byDefault.source == F.watch)
            #expect(byDefault.asleepSeconds == 25_200)
            #expect(byDefault.inBedSeconds == 25_200)
            #expect(nights(Self.threeSources).count == 1)

            let ringFirst = try #require(
                nights(Self.threeSources, priority: SourcePriority(preferred: [F.ring])).first)
            #expect(ringFirst.source == F.ring)
            #expect(ringFirst.asleepSeconds == 28_800)
        }

        /// A source with only awake samples does not claim a night.
        @Test func awakeAloneMakesNoNight() {
            #expect(nights([F.sleep("awake", from: "2024-03-02 03:00", to: "2024-03-02 03:10")]).isEmpty)
        }

        struct Boundary: Sendable, CustomStringConvertible {
            let end: String
            let night: CivilDate
            var description: String { end }
        }

        /// night = local date of the end if it ends before 12:00, else the next date.
        @Test(arguments: [
            Boundary(end: "2024-03-02 07:00", night: F.day(2024, 3, 2)),
            Boundary(end: "2024-03-02 11:59:59.999", night: F.day(2024, 3, 2)),
            Boundary(end: "2024-03-02 12:00", night: F.day(2024, 3, 3)),
            Boundary(end: "2024-03-02 00:00", night: F.day(2024, 3, 2)),
            Boundary(end: "2024-03-01 23:00", night: F.day(2024, 3, 2)),
            // an afternoon nap belongs to the coming night
            Boundary(end: "2024-03-01 13:00", night: F.day(2024, 3, 2)),
        ])
        func nightRunsFromNoonToNoon(_ c: Boundary) {
            #expect(SleepNightCalculator.night(endingAt: F.utc(c.end), in: .utc) == c.night)
        }

        /// At +9 h: ending 02:30Z is 11:30 local → night 03-02; ending 03:30Z is 12:30 local →
        /// night 03-03 (read as UTC both would be 03-02).
        @Test func nightIsReadInTheSamplesZone() {
            let result = nights([
                F.sleep("asleep_core", from: "2024-03-01 14:00", to: "2024-03-02 02:30", utcOffsetHours: 9),
                F.sleep("asleep_core", from: "2024-03-02 03:00", to: "2024-03-02 03:30", utcOffsetHours: 9),
            ])
            #expect(result.map(\.night) == [F.day(2024, 3, 2), F.day(2024, 3, 3)])
            // 14:00 → 02:30 = 12.5 h; the nap 30 min
            #expect(result.map(\.asleepSeconds) == [45_000, 1800])
        }

        /// Night 03-02 holds ends in local [03-01 12:00, 03-02 12:00), widened by 14 h each side.
        @Test func sampleWindowCoversEveryOffset() {
            #expect(
                SleepNightCalculator.sampleWindow(forNight: F.day(2024, 3, 2))
                    == F.utc("2024-02-29 22:00")..<F.utc("2024-03-03 02:00"))
        }
    }
}
