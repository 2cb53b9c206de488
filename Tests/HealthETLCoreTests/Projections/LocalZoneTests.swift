import Foundation
import HealthETLCore
import Testing

extension ProjectionTests {
    struct LocalZoneTests {
        typealias F = ProjectionFixtures

        static let berlin = LocalZone.named(TimeZone(identifier: "Europe/Berlin")!)

        @Test func fixedOffsetMovesTheDate() {
            let zone = LocalZone.fixed(utcOffsetSeconds: -5 * 3600)
            // 2024-03-02 04:30Z − 5 h = 2024-03-01 23:30 local
            #expect(zone.localDay(of: F.utc("2024-03-02 04:30")) == F.day(2024, 3, 1))
            // the next local midnight is 2024-03-02 00:00 local = 05:00Z
            #expect(zone.endOfDay(containing: F.utc("2024-03-02 04:30")) == F.utc("2024-03-02 05:00"))
        }

        /// Berlin springs forward on 2024-03-31 at 01:00Z (02:00 CET → 03:00 CEST): the local day
        /// runs from 2024-03-30 23:00Z (+1 h) to 2024-03-31 22:00Z (+2 h), 23 hours.
        @Test func offsetIsTheOneInForceAtTheInstant() {
            #expect(Self.berlin.utcOffsetSeconds(at: F.utc("2024-03-31 00:59")) == 3600)
            #expect(Self.berlin.utcOffsetSeconds(at: F.utc("2024-03-31 01:00")) == 7200)
            #expect(Self.berlin.localDay(of: F.utc("2024-03-30 22:59")) == F.day(2024, 3, 30))
            #expect(Self.berlin.localDay(of: F.utc("2024-03-30 23:00")) == F.day(2024, 3, 31))
            #expect(Self.berlin.localDay(of: F.utc("2024-03-31 21:59")) == F.day(2024, 3, 31))
            #expect(Self.berlin.localDay(of: F.utc("2024-03-31 22:00")) == F.day(2024, 4, 1))
        }

        /// From 00:30 CET (23:30Z) the next midnight at +1 h would be 23:00Z; the change to +2 h
        /// during the day brings it forward to 22:00Z.
        @Test func endOfDayFollowsAClockChangeDuringTheDay() {
            #expect(Self.berlin.endOfDay(containing: F.utc("2024-03-30 23:30")) == F.utc("2024-03-31 22:00"))
            // and from after the change: 2024-04-01 00:00 CEST − 2 h
            #expect(Self.berlin.endOfDay(containing: F.utc("2024-03-31 12:00")) == F.utc("2024-03-31 22:00"))
        }

        /// Chile springs forward at midnight: 2024-09-08 00:00 (−4 h) becomes 01:00 (−3 h), so
        /// 2024-09-07 ends at 04:00Z and 2024-09-08 starts at 01:00 local.
        @Test func endOfDayWhenMidnightIsSkipped() throws {
            let santiago = LocalZone.named(try #require(TimeZone(identifier: "America/Santiago")))
            #expect(santiago.endOfDay(containing: F.utc("2024-09-07 16:00")) == F.utc("2024-09-08 04:00"))
            #expect(santiago.localDay(of: F.utc("2024-09-08 04:00")) == F.day(2024, 9, 8))
            #expect(santiago.millisecondsIntoDay(at: F.utc("2024-09-08 04:00")) == 3_600_000)
        }

        @Test func resolverPrefersRecordedZoneThenConfiguredThenOffsetThenUTC() throws {
            let newYork = try #require(TimeZone(identifier: "America/New_York"))
            let withZone = F.sample(
                source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 08:10", utcOffsetHours: 1,
                timeZone: "Asia/Tokyo")
            let withOffset = F.sample(
                source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 08:10", utcOffsetHours: 1)
            let bare = F.sample(source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 08:10")
            let unknownZone = F.sample(
                source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 08:10", utcOffsetHours: 1,
                timeZone: "Mars/Olympus_Mons")

            var configured = LocalDayResolver(configuredZone: newYork)
            #expect(configured.zone(of: withZone) == .named(try #require(TimeZone(identifier: "Asia/Tokyo"))))
            #expect(configured.zone(of: withOffset) == .named(newYork))
            #expect(configured.zone(of: unknownZone) == .named(newYork))

            var unconfigured = LocalDayResolver()
            #expect(unconfigured.zone(of: withOffset) == .fixed(utcOffsetSeconds: 3600))
            #expect(unconfigured.zone(of: unknownZone) == .fixed(utcOffsetSeconds: 3600))
            #expect(unconfigured.zone(of: bare) == .utc)
        }
    }
}
