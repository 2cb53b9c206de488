import Testing

@testable import HealthETLCore

/// Expected instants are computed by hand as
/// `days since 1970-01-01 × 86_400_000 + local time of day in ms − offset`, with the day counts:
/// - 2024-03-01: 54 years × 365 + 13 leap days (1972…2020) + 31 (Jan) + 29 (Feb) = 19_783
/// - 2024-02-29: 19_783 − 1 = 19_782
/// - 2021-12-24: 51 × 365 + 13 (1972…2020) + 334 (Jan…Nov) + 23 = 18_985
/// - 2014-01-14: 44 × 365 + 11 (1972…2012) + 13 = 16_084
/// - 1969-07-20: −(12 (Jul 20…31) + 31 + 30 + 31 + 30 + 31 (Aug…Dec)) = −165
/// - 1900-01-01: −(70 × 365 + 17 leap days (1904…1968)) = −25_567
struct TimestampParserTests {
    struct Case: Sendable, CustomStringConvertible {
        let text: String
        let milliseconds: Int64
        let offset: Int32?
        var description: String { text }
    }

    static let day20240301: Int64 = 19_783 * 86_400_000  // = 1_709_251_200_000

    @Test(arguments: [
        // 06:30 at −08:00 is 14:30Z: 1_709_251_200_000 + 14.5 h (52_200_000) = 1_709_303_400_000
        Case(text: "2024-03-01 06:30:00 -0800", milliseconds: 1_709_303_400_000, offset: -28_800),
        // 06:30 at +01:00 is 05:30Z: 1_709_251_200_000 + 5.5 h (19_800_000) = 1_709_271_000_000
        Case(text: "2024-03-01 06:30:00 +0100", milliseconds: 1_709_271_000_000, offset: 3_600),
        // 23:15 at −05:30 is 04:45Z the next day: 19_784 × 86_400_000 + 4.75 h = 1_709_337_600_000 + 17_100_000
        Case(text: "2024-03-01 23:15:00 -0530", milliseconds: 1_709_354_700_000, offset: -19_800),
        // 00:00 at +14:00 is 10:00Z the previous day: 19_782 × 86_400_000 + 10 h = 1_709_164_800_000 + 36_000_000
        Case(text: "2024-03-01 00:00:00 +1400", milliseconds: 1_709_200_800_000, offset: 50_400),
    ])
    func appleFormatWithOffsets(_ c: Case) throws {
        let parsed = try #require(TimestampParser.parse(c.text))
        #expect(parsed.instant.millisecondsSinceEpoch == c.milliseconds)
        #expect(parsed.utcOffsetSeconds == c.offset)
    }

    @Test(arguments: [
        // 06:30Z: 1_709_251_200_000 + 6.5 h (23_400_000)
        Case(text: "2024-03-01T06:30:00Z", milliseconds: 1_709_274_600_000, offset: 0),
        // 05:30Z + 125 ms
        Case(text: "2024-03-01T06:30:00.125+01:00", milliseconds: 1_709_271_000_125, offset: 3_600),
        // .5 s = 500 ms
        Case(text: "2024-03-01T06:30:00.5Z", milliseconds: 1_709_274_600_500, offset: 0),
        // extra fraction digits are truncated: .123456 → 123 ms
        Case(text: "2024-03-01T06:30:00.123456Z", milliseconds: 1_709_274_600_123, offset: 0),
        // comma as decimal sign: ,08 → 80 ms
        Case(text: "2024-03-01T06:30:00,08Z", milliseconds: 1_709_274_600_080, offset: 0),
        // 06:30 at −05:30 is 12:00Z: 1_709_251_200_000 + 43_200_000
        Case(text: "2024-03-01T06:30:00-05:30", milliseconds: 1_709_294_400_000, offset: -19_800),
        // 06:30 at +05:45 is 00:45Z: 1_709_251_200_000 + 2_700_000
        Case(text: "2024-03-01T06:30:00+05:45", milliseconds: 1_709_253_900_000, offset: 20_700),
        // hours-only offset +01 = 3600 s
        Case(text: "2024-03-01T06:30:00+01", milliseconds: 1_709_271_000_000, offset: 3_600),
        // no zone: read as UTC, offset recorded as absent
        Case(text: "2024-03-01T06:30:00", milliseconds: 1_709_274_600_000, offset: nil),
    ])
    func iso8601(_ c: Case) throws {
        let parsed = try #require(TimestampParser.parse(c.text))
        #expect(parsed.instant.millisecondsSinceEpoch == c.milliseconds)
        #expect(parsed.utcOffsetSeconds == c.offset)
    }

    /// 2021-12-24 is day 18_985: 18_985 × 86_400_000 = 1_640_304_000_000.
    @Test(arguments: [
        // 8:04:45 PM = 20:04:45 at +08:00 = 12:04:45Z: + 43_485_000
        Case(text: "2021-12-24 8:04:45 PM +0800", milliseconds: 1_640_347_485_000, offset: 28_800),
        // the same with U+202F NARROW NO-BREAK SPACE before PM, as iOS writes it
        Case(text: "2021-12-24 8:04:45\u{202F}PM +0800", milliseconds: 1_640_347_485_000, offset: 28_800),
        // 8:04:45 AM at +08:00 = 00:04:45Z: + 285_000
        Case(text: "2021-12-24 08:04:45 AM +0800", milliseconds: 1_640_304_285_000, offset: 28_800),
        // 12 AM is 00: midnight UTC
        Case(text: "2021-12-24 12:00:00 AM +0000", milliseconds: 1_640_304_000_000, offset: 0),
        // 12:30 AM is 00:30: + 1_800_000
        Case(text: "2021-12-24 12:30:00\u{202F}AM +0000", milliseconds: 1_640_305_800_000, offset: 0),
        // 12 PM is 12: noon UTC, + 43_200_000
        Case(text: "2021-12-24 12:00:00 PM +0000", milliseconds: 1_640_347_200_000, offset: 0),
        // 11:59:59 PM is 23:59:59: + 86_399_000
        Case(text: "2021-12-24 11:59:59 PM +0000", milliseconds: 1_640_390_399_000, offset: 0),
        // 1 PM is 13:00: + 46_800_000
        Case(text: "2021-12-24 1:00:00 PM", milliseconds: 1_640_350_800_000, offset: nil),
    ])
    func twelveHourClock(_ c: Case) throws {
        let parsed = try #require(TimestampParser.parse(c.text))
        #expect(parsed.instant.millisecondsSinceEpoch == c.milliseconds)
        #expect(parsed.utcOffsetSeconds == c.offset)
    }

    @Test(arguments: ["2021-12-24 0:30:00 AM", "2021-12-24 13:00:00 PM", "2021-12-24 00:00:00 PM"])
    func twelveHourClockRejectsHoursOutsideOneToTwelve(_ text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }

    @Test func compact2014Format() throws {
        // 2014-01-14 08:43:47 at −08:00 = 16:43:47Z: 16_084 × 86_400_000 + 60_227_000
        // = 1_389_657_600_000 + 60_227_000
        let parsed = try #require(TimestampParser.parse("20140114084347-0800"))
        #expect(parsed.instant.millisecondsSinceEpoch == 1_389_717_827_000)
        #expect(parsed.utcOffsetSeconds == -28_800)
        // without a zone it is UTC: 16_084 × 86_400_000 + 31_427_000 (08:43:47)
        let bare = try #require(TimestampParser.parse("20140114084347"))
        #expect(bare.instant.millisecondsSinceEpoch == 1_389_689_027_000)
        #expect(bare.utcOffsetSeconds == nil)
    }

    @Test(arguments: [
        // −165 × 86_400_000 + 20:17:40 (73_060_000) = −14_256_000_000 + 73_060_000
        Case(text: "1969-07-20 20:17:40 +0000", milliseconds: -14_182_940_000, offset: 0),
        // 15:17:40 at −05:00 is the same instant
        Case(text: "1969-07-20 15:17:40 -0500", milliseconds: -14_182_940_000, offset: -18_000),
        // one millisecond before the epoch
        Case(text: "1969-12-31T23:59:59.999Z", milliseconds: -1, offset: 0),
        // 01:00 at +01:00 on 1970-01-01 is the epoch itself
        Case(text: "1970-01-01T01:00:00+01:00", milliseconds: 0, offset: 3_600),
        // −25_567 × 86_400_000
        Case(text: "1900-01-01T00:00:00Z", milliseconds: -2_208_988_800_000, offset: 0),
    ])
    func datesBefore1970(_ c: Case) throws {
        let parsed = try #require(TimestampParser.parse(c.text))
        #expect(parsed.instant.millisecondsSinceEpoch == c.milliseconds)
        #expect(parsed.utcOffsetSeconds == c.offset)
    }

    @Test func leapDays() throws {
        // 2024-02-29 is day 19_782: 19_782 × 86_400_000 + 12 h = 1_709_164_800_000 + 43_200_000
        let leap = try #require(TimestampParser.parse("2024-02-29T12:00:00Z"))
        #expect(leap.instant.millisecondsSinceEpoch == 1_709_208_000_000)
        // 2000 is a leap year (divisible by 400): 30 × 365 + 7 (1972…1996) + 31 + 28 = 11_016
        let y2k = try #require(TimestampParser.parse("2000-02-29 00:00:00 +0000"))
        #expect(y2k.instant.millisecondsSinceEpoch == 11_016 * 86_400_000)
        #expect(TimestampParser.parse("2023-02-29T12:00:00Z") == nil)
        #expect(TimestampParser.parse("2023-02-29 12:00:00 +0000") == nil)
        // 1900 and 2100 are not leap years (divisible by 100, not 400)
        #expect(TimestampParser.parse("1900-02-29T00:00:00Z") == nil)
        #expect(TimestampParser.parse("2100-02-29T00:00:00Z") == nil)
    }

    @Test(arguments: [
        "",
        "garbage",
        "not a date-time at all",
        "2024-03-01",
        "2024-13-01T06:30:00Z",  // month 13
        "2024-00-01T06:30:00Z",  // month 0
        "2024-03-00T06:30:00Z",  // day 0
        "2024-04-31T06:30:00Z",  // April has 30 days
        "2024-03-01T25:00:00Z",  // hour 25
        "2024-03-01T24:00:00Z",  // hour 24
        "2024-03-01 25:00:00 -0800",
        "2024-03-01T06:60:00Z",  // minute 60
        "2024-03-01T06:30:61Z",  // second 61
        "2024-03-01T06:30Z",  // missing seconds
        "2024-03-01 06:30 -0800",  // missing seconds
        "2024-03-01T06:30:00Zjunk",  // trailing junk
        "2024-03-01 06:30:00 -0800 extra",
        "2024-03-01 06:30:00 -0800x",
        "2024-03-01T06:30:00+01:00:00",
        "2024-03-01T06:30:00+19:00",  // offset beyond ±18 h
        "2024-03-01T06:30:00+01:60",
        "2024-03-01T06:30:00+1",
        "2024-03-01T06:30:00 UTC",
        "2024/03/01 06:30:00 -0800",
        "2024-03-01X06:30:00Z",
        "24-03-01T06:30:00Z",
        "2024-3-1T06:30:00Z",
        "201401140843",  // compact, too short
        "2014011408434X-0800",
    ])
    func malformedInputsAreRejected(_ text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }

    @Test func substringAndBytesAgreeWithString() throws {
        let text = "xx2024-03-01 06:30:00 -0800yy"
        let inner = text.dropFirst(2).dropLast(2)
        let parsed = try #require(TimestampParser.parse(inner))
        #expect(parsed.instant.millisecondsSinceEpoch == 1_709_303_400_000)
        let viaBytes = Array("2024-03-01 06:30:00 -0800".utf8).withUnsafeBufferPointer {
            TimestampParser.parse(bytes: $0)
        }
        #expect(viaBytes == parsed)
    }
}
