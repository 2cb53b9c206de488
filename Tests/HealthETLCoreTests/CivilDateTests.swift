import Testing

@testable import HealthETLCore

struct CivilDateTests {
    struct Case: Sendable, CustomStringConvertible {
        let year: Int
        let month: Int
        let day: Int
        let days: Int64
        var description: String { "\(year)-\(month)-\(day)" }
    }

    /// Day counts by hand, relative to 1970-01-01.
    @Test(arguments: [
        Case(year: 1970, month: 1, day: 1, days: 0),
        // the day before the epoch
        Case(year: 1969, month: 12, day: 31, days: -1),
        Case(year: 1970, month: 1, day: 2, days: 1),
        // 1970 has 365 days
        Case(year: 1971, month: 1, day: 1, days: 365),
        // 30 × 365 + 7 leap days (1972…1996) + 31 (Jan) + 28 (Feb 1…28) = 11_016
        Case(year: 2000, month: 2, day: 29, days: 11_016),
        Case(year: 2000, month: 3, day: 1, days: 11_017),
        // 54 × 365 + 13 (1972…2020) + 31 + 29 = 19_783
        Case(year: 2024, month: 3, day: 1, days: 19_783),
        Case(year: 2024, month: 2, day: 29, days: 19_782),
        // 130 × 365 + 32 leap days (1972…2096, 2000 included) + 31 + 28 (2100 is not leap) = 47_541
        Case(year: 2100, month: 3, day: 1, days: 47_541),
        Case(year: 2100, month: 2, day: 28, days: 47_540),
        // 1600-01-01 → 1970-01-01: 370 × 365 + (93 multiples of 4 in 1600…1968 − 3 (1700, 1800, 1900)) = 135_140;
        // 1600-03-01 is 31 + 29 = 60 days after 1600-01-01: −135_140 + 60
        Case(year: 1600, month: 3, day: 1, days: -135_080),
        Case(year: 1600, month: 2, day: 29, days: -135_081),
        // −(70 × 365 + 17 leap days (1904…1968))
        Case(year: 1900, month: 1, day: 1, days: -25_567),
        // 0001-01-01: −(1969 × 365 + (492 − 19 + 4) leap days in 1…1969) = −(718_685 + 477)
        Case(year: 1, month: 1, day: 1, days: -719_162),
    ])
    func knownDayCounts(_ c: Case) throws {
        let date = try #require(CivilDate(year: c.year, month: c.month, day: c.day))
        #expect(date.daysSinceEpoch == c.days)
        let back = CivilDate(daysSinceEpoch: c.days)
        #expect(back == date)
        #expect(back.year == c.year && back.month == c.month && back.day == c.day)
    }

    /// Walks every day from 1600-03-01 to 2100-03-01 and checks each step is the calendar's next day
    /// and that the day count round-trips.
    @Test func everyDayFrom1600To2100RoundTrips() throws {
        var date = try #require(CivilDate(year: 1600, month: 3, day: 1))
        let last = try #require(CivilDate(year: 2100, month: 3, day: 1))
        var days: Int64 = -135_080
        var steps = 0
        while date < last {
            #expect(date.daysSinceEpoch == days)
            #expect(CivilDate(daysSinceEpoch: days) == date)
            let next = date.adding(days: 1)
            let expected: CivilDate?
            if date.day < CivilDate.daysIn(month: date.month, year: date.year) {
                expected = CivilDate(year: date.year, month: date.month, day: date.day + 1)
            } else if date.month < 12 {
                expected = CivilDate(year: date.year, month: date.month + 1, day: 1)
            } else {
                expected = CivilDate(year: date.year + 1, month: 1, day: 1)
            }
            if next != expected {
                Issue.record("after \(date) came \(next), expected \(String(describing: expected))")
                return
            }
            date = next
            days += 1
            steps += 1
        }
        #expect(date.daysSinceEpoch == 47_541)
        // 1600-03-01 → 2100-03-01 is 500 years: 500 × 365 + 121 leap days (124 multiples of 4 in
        // 1604…2096 − 3 for 1700, 1800, 1900) = 182_500 + 121
        #expect(steps == 182_621)
    }

    @Test(arguments: [Int64(-1_000_000_000), -719_162, -1, 0, 1, 1_000_000, 2_932_896])
    func farRangeRoundTrips(_ days: Int64) {
        #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
    }

    @Test func ordering() throws {
        let a = try #require(CivilDate(year: 1999, month: 12, day: 31))
        let b = try #require(CivilDate(year: 2000, month: 1, day: 1))
        let c = try #require(CivilDate(year: 2000, month: 1, day: 2))
        #expect(a < b && b < c && !(b < a))
        #expect(b.adding(days: -1) == a)
    }

    @Test(arguments: [
        (2023, 2, 29), (1900, 2, 29), (2100, 2, 29), (2024, 4, 31), (2024, 13, 1), (2024, 0, 1),
        (2024, 1, 0), (2024, 1, 32), (2024, 6, 31), (2024, 9, 31), (2024, 11, 31),
    ])
    func invalidDatesAreRejected(year: Int, month: Int, day: Int) {
        #expect(CivilDate(year: year, month: month, day: day) == nil)
    }

    @Test(arguments: [(2024, 2, 29), (2000, 2, 29), (1600, 2, 29), (2024, 12, 31), (2024, 1, 31)])
    func validEdgeDatesAreAccepted(year: Int, month: Int, day: Int) {
        #expect(CivilDate(year: year, month: month, day: day) != nil)
    }

    @Test(arguments: [
        (2024, 3, 1, "2024-03-01"),
        (2024, 12, 31, "2024-12-31"),
        (1600, 3, 1, "1600-03-01"),
        (800, 1, 5, "0800-01-05"),
        (42, 10, 9, "0042-10-09"),
        (1, 1, 1, "0001-01-01"),
    ])
    func descriptionZeroPads(year: Int, month: Int, day: Int, text: String) throws {
        let date = try #require(CivilDate(year: year, month: month, day: day))
        #expect(date.description == text)
    }
}
