import HealthETLCore
import Testing

@testable import CollectorSink

/// `Retry-After` in its three date formats and as delta-seconds, and the query encoding.
@Suite struct RetryAfterTests {
    /// 1994-11-06T08:49:00Z: a minute before RFC 9110's example date.
    static let now = Instant(secondsSinceEpoch: 784_111_740)

    @Test func deltaSecondsAreTakenAsIs() {
        #expect(RetryAfter.seconds("7", now: Self.now) == 7)
        #expect(RetryAfter.seconds(" 120 ", now: Self.now) == 120)
        #expect(RetryAfter.seconds("0", now: Self.now) == 0)
        #expect(RetryAfter.seconds("99999999999999999999999", now: Self.now) == RetryAfter.maximumSeconds)
    }

    @Test func allThreeHTTPDateFormatsAreRead() {
        for text in [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        ] {
            #expect(RetryAfter.seconds(text, now: Self.now) == 37, "\(text)")
        }
    }

    @Test func aDateInThePastMeansNow() {
        #expect(RetryAfter.seconds("Sat, 05 Nov 1994 08:49:37 GMT", now: Self.now) == 0)
    }

    @Test func unreadableValuesAreIgnored() {
        for text in [
            nil, "", "-5", "1.5", "soon", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 31 Feb 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:00:00 GMT",
        ] {
            #expect(RetryAfter.seconds(text, now: Self.now) == nil, "\(text ?? "nil")")
        }
    }

    @Test func queryValuesArePercentEncoded() {
        #expect(
            QueryEncoding.query([("metric", "a b&c=d+é"), ("from", "2026-01-01")])
                == "metric=a%20b%26c%3Dd%2B%C3%A9&from=2026-01-01")
    }
}
