import Testing

@testable import HealthETLCore

struct InstantTests {
    struct Case: Sendable, CustomStringConvertible {
        let milliseconds: Int64
        let offset: Int32
        let text: String
        var description: String { text }
    }

    /// 1_709_274_600_000 = 19_783 days (2024-03-01) × 86_400_000 + 6.5 h: 2024-03-01T06:30:00Z.
    @Test(arguments: [
        Case(milliseconds: 0, offset: 0, text: "1970-01-01T00:00:00.000Z"),
        Case(milliseconds: 0, offset: 3_600, text: "1970-01-01T01:00:00.000+01:00"),
        Case(milliseconds: 1_709_274_600_000, offset: 0, text: "2024-03-01T06:30:00.000Z"),
        // +1 h → 07:30
        Case(milliseconds: 1_709_274_600_000, offset: 3_600, text: "2024-03-01T07:30:00.000+01:00"),
        // −8 h → 22:30 the day before, a leap day
        Case(milliseconds: 1_709_274_600_000, offset: -28_800, text: "2024-02-29T22:30:00.000-08:00"),
        // +5:45 (20_700 s) → 12:15
        Case(milliseconds: 1_709_274_600_000, offset: 20_700, text: "2024-03-01T12:15:00.000+05:45"),
        // −9:30 (−34_200 s) → 21:00 the day before
        Case(milliseconds: 1_709_274_600_000, offset: -34_200, text: "2024-02-29T21:00:00.000-09:30"),
        // +14:00 → 20:30
        Case(milliseconds: 1_709_274_600_000, offset: 50_400, text: "2024-03-01T20:30:00.000+14:00"),
        // milliseconds are zero-padded to three digits
        Case(milliseconds: 1_709_274_600_005, offset: 0, text: "2024-03-01T06:30:00.005Z"),
        Case(milliseconds: 1_709_274_600_050, offset: 0, text: "2024-03-01T06:30:00.050Z"),
        Case(milliseconds: 1_709_274_600_999, offset: 0, text: "2024-03-01T06:30:00.999Z"),
        // 1_709_274_600_000 + 3 h 29 min 59.5 s (12_599_500 ms) → 09:59:59.500
        Case(milliseconds: 1_709_287_199_500, offset: 0, text: "2024-03-01T09:59:59.500Z"),
    ])
    func iso8601WithOffsets(_ c: Case) {
        #expect(Instant(millisecondsSinceEpoch: c.milliseconds).iso8601(utcOffsetSeconds: c.offset) == c.text)
    }

    @Test(arguments: [
        // one millisecond before the epoch
        Case(milliseconds: -1, offset: 0, text: "1969-12-31T23:59:59.999Z"),
        Case(milliseconds: -1, offset: -3_600, text: "1969-12-31T22:59:59.999-01:00"),
        // at +1 h, −1 ms is 00:59:59.999 on 1970-01-01
        Case(milliseconds: -1, offset: 3_600, text: "1970-01-01T00:59:59.999+01:00"),
        // exactly one day before the epoch: the floor division must not spill into 1969-12-30
        Case(milliseconds: -86_400_000, offset: 0, text: "1969-12-31T00:00:00.000Z"),
        Case(milliseconds: -86_400_001, offset: 0, text: "1969-12-30T23:59:59.999Z"),
        // −165 days × 86_400_000 + 73_060_000 (20:17:40)
        Case(milliseconds: -14_182_940_000, offset: 0, text: "1969-07-20T20:17:40.000Z"),
        // −25_567 days × 86_400_000
        Case(milliseconds: -2_208_988_800_000, offset: 0, text: "1900-01-01T00:00:00.000Z"),
        // −25_567 days − 1 ms
        Case(milliseconds: -2_208_988_800_001, offset: 0, text: "1899-12-31T23:59:59.999Z"),
    ])
    func negativeInstants(_ c: Case) {
        #expect(Instant(millisecondsSinceEpoch: c.milliseconds).iso8601(utcOffsetSeconds: c.offset) == c.text)
    }

    /// Years 0 to 9999 are written into one buffer, others piece by piece: both read the same.
    @Test func yearsAtTheEdgesOfFourDigits() {
        // 253_402_300_800_000 ms is 10000-01-01T00:00:00Z; 1 ms earlier ends year 9999.
        #expect(Instant(millisecondsSinceEpoch: 253_402_300_799_999).description == "9999-12-31T23:59:59.999Z")
        #expect(Instant(millisecondsSinceEpoch: 253_402_300_800_000).description == "10000-01-01T00:00:00.000Z")
        #expect(
            Instant(millisecondsSinceEpoch: 253_402_300_800_000).iso8601(utcOffsetSeconds: -3_600)
                == "9999-12-31T23:00:00.000-01:00")
        // −62_167_219_200_000 ms is 0000-01-01T00:00:00Z.
        #expect(Instant(millisecondsSinceEpoch: -62_167_219_200_000).description == "0000-01-01T00:00:00.000Z")
    }

    @Test func descriptionIsUTC() {
        #expect(Instant(millisecondsSinceEpoch: 1_709_274_600_000).description == "2024-03-01T06:30:00.000Z")
        #expect(Instant(millisecondsSinceEpoch: -1).description == "1969-12-31T23:59:59.999Z")
    }

    @Test(arguments: [
        "2024-03-01T07:30:00.000+01:00", "2024-02-29T22:30:00.000-08:00", "1969-12-31T23:59:59.999Z",
        "1969-07-20T15:17:40.250-05:00", "2024-03-01T12:15:00.000+05:45",
    ])
    func formattingRoundTripsThroughTheParser(_ text: String) throws {
        let parsed = try #require(TimestampParser.parse(text))
        #expect(parsed.instant.iso8601(utcOffsetSeconds: parsed.utcOffsetSeconds ?? 0) == text)
    }

    @Test func arithmetic() {
        let start = Instant(secondsSinceEpoch: 1_709_274_600)
        #expect(start.millisecondsSinceEpoch == 1_709_274_600_000)
        #expect(start.adding(seconds: 90).millisecondsSinceEpoch == 1_709_274_690_000)
        #expect(start.adding(seconds: -90).millisecondsSinceEpoch == 1_709_274_510_000)
        #expect(start.seconds(until: Instant(millisecondsSinceEpoch: 1_709_274_601_500)) == 1.5)
        #expect(start.seconds(until: start.adding(seconds: -60)) == -60)
        #expect(Instant(millisecondsSinceEpoch: -5) < Instant(millisecondsSinceEpoch: 0))
        #expect(Instant(secondsSinceEpoch: -2).millisecondsSinceEpoch == -2_000)
    }

    @Test(arguments: [
        // (value, divisor, quotient, remainder): floor division keeps the remainder in 0..<divisor
        (Int64(7), Int64(3), Int64(2), Int64(1)),
        (-7, 3, -3, 2),
        (-6, 3, -2, 0),
        (-1, 86_400_000, -1, 86_399_999),
        (-86_400_000, 86_400_000, -1, 0),
        (0, 86_400_000, 0, 0),
    ])
    func floorDivision(value: Int64, divisor: Int64, quotient: Int64, remainder: Int64) {
        let result = value.floorDivided(by: divisor)
        #expect(result.quotient == quotient)
        #expect(result.remainder == remainder)
    }
}
