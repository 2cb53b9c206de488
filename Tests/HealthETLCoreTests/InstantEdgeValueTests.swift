import Testing

@testable import HealthETLCore

/// `Instant` and `floorDivided` at the ends of `Int64`, where a Health Connect row may put a time:
/// every result is defined, none traps (a trap here ends the whole test run).
struct InstantEdgeValueTests {
    static let latest = Instant(millisecondsSinceEpoch: .max)
    static let earliest = Instant(millisecondsSinceEpoch: .min)

    @Test(arguments: [
        // (value, divisor, quotient, remainder), worked out with Python's divmod
        (Int64.min, Int64(86_400_000), Int64(-106_751_991_168), Int64(60_424_192)),
        (Int64.max, 86_400_000, 106_751_991_167, 25_975_807),
        (Int64.min, 1000, -9_223_372_036_854_776, 192),
        (Int64.max, 1000, 9_223_372_036_854_775, 807),
        (Int64.min, 1, Int64.min, 0),
        (Int64.min + 1, 2, -4_611_686_018_427_387_904, 1),
        (Int64.min, 12, -768_614_336_404_564_651, 4),
    ])
    func floorDivisionAtTheEnds(value: Int64, divisor: Int64, quotient: Int64, remainder: Int64) {
        let result = value.floorDivided(by: divisor)
        #expect(result.quotient == quotient)
        #expect(result.remainder == remainder)
    }

    @Test func textAtTheEndsAtAnyOffset() {
        #expect(Self.latest.description == "292278994-08-17T07:12:55.807Z")
        #expect(Self.latest.iso8601(utcOffsetSeconds: 3_600) == "292278994-08-17T08:12:55.807+01:00")
        #expect(Self.earliest.description == "-292275055-05-16T16:47:04.192Z")
        #expect(Self.earliest.iso8601(utcOffsetSeconds: -3_600) == "-292275055-05-16T15:47:04.192-01:00")
        // An offset no zone has (a corrupt column clamped to Int32) is written out whole, not cut to two digits.
        #expect(Self.latest.iso8601(utcOffsetSeconds: .max) == "292279062-09-05T10:27:02.807+596523:14")
        #expect(Self.earliest.iso8601(utcOffsetSeconds: .min) == "-292275123-04-27T13:32:56.192-596523:14")
        #expect(
            Instant(millisecondsSinceEpoch: 1_709_274_600_000).iso8601(utcOffsetSeconds: 360_000)
                == "2024-03-05T10:30:00.000+100:00")
    }

    @Test func spansAcrossTheWholeLine() {
        // 2^64 − 1 ms, as the nearest Double
        #expect(Self.latest.seconds(until: Self.earliest) == -18_446_744_073_709_551.615)
        #expect(Self.earliest.seconds(until: Self.latest) == 18_446_744_073_709_551.615)
        #expect(Self.earliest.seconds(until: Instant(millisecondsSinceEpoch: 0)) == 9_223_372_036_854_775.808)
    }

    @Test func sumsAndProductsHoldAtTheEnds() {
        #expect(Self.latest.adding(seconds: 900) == Self.latest)
        #expect(Self.earliest.adding(seconds: -900) == Self.earliest)
        #expect(Instant(millisecondsSinceEpoch: 0).adding(seconds: .max) == Self.latest)
        #expect(Instant(millisecondsSinceEpoch: 0).adding(seconds: .min) == Self.earliest)
        #expect(Self.latest.adding(seconds: -1).millisecondsSinceEpoch == Int64.max - 1000)
        #expect(Instant(secondsSinceEpoch: .max) == Self.latest)
        #expect(Instant(secondsSinceEpoch: .min) == Self.earliest)
        #expect(Instant(secondsSinceEpoch: -9_223_372_036_854_775).millisecondsSinceEpoch == -9_223_372_036_854_775_000)
    }

    @Test func daysAndSecondsAtTheEnds() {
        // The first day of the line starts before it: held at the line's start.
        #expect(Self.earliest.startOfUTCDay == Self.earliest)
        #expect(Self.earliest.truncatedToSecond == Self.earliest)
        #expect(Self.latest.startOfUTCDay.millisecondsSinceEpoch == Int64.max - 25_975_807)
        #expect(Self.latest.truncatedToSecond.millisecondsSinceEpoch == Int64.max - 807)
        #expect(Self.latest.utcDay.description == "292278994-08-17")
        #expect(Self.earliest.utcDay.description == "-292275055-05-16")
        #expect(Instant(millisecondsSinceEpoch: -1).startOfUTCDay.millisecondsSinceEpoch == -86_400_000)
    }

    @Test func saturatingArithmetic() {
        #expect(Int64.max.saturatingAdding(1) == .max)
        #expect(Int64.min.saturatingAdding(-1) == .min)
        #expect(Int64.max.saturatingAdding(Int64.min) == -1)
        #expect(Int64.min.saturatingSubtracting(1) == .min)
        #expect(Int64.max.saturatingSubtracting(-1) == .max)
        #expect(Int64(0).saturatingSubtracting(.min) == .max)
        #expect(Int64.max.saturatingMultiplied(by: 2) == .max)
        #expect(Int64.min.saturatingMultiplied(by: 2) == .min)
        #expect(Int64.min.saturatingMultiplied(by: -1) == .max)
        #expect(Int64.max.saturatingMultiplied(by: -2) == .min)
        #expect(Int64(-3).saturatingMultiplied(by: 7) == -21)
    }
}
