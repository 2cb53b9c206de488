import HealthETLCore
import Testing

@testable import HealthETLMCP

/// Buckets are local hours, days and Monday-to-Sunday weeks, per source, on either side of 1970.
struct SampleBucketingTests {
    func sample(_ source: String, _ value: Double?) -> Sample {
        Sample(
            id: ContentID(digest: Array(repeating: 0, count: 16)), metric: "heart_rate", sourceName: source,
            start: Instant(secondsSinceEpoch: 0), end: Instant(secondsSinceEpoch: 0), utcOffsetSeconds: nil,
            value: value)
    }

    static func local(_ text: String) -> Int64 {
        let day = CivilDate(text: String(text.prefix(10)))!
        let hour = Int64(text.dropFirst(11).prefix(2)) ?? 0
        return day.daysSinceEpoch * 86_400_000 + hour * 3_600_000 + 1_234
    }

    @Test(arguments: [
        ("2026-03-04T10", "2026-03-02"),  // a Wednesday: its Monday
        ("2026-03-02T00", "2026-03-02"),  // a Monday: itself
        ("2026-03-08T23", "2026-03-02"),  // a Sunday: the Monday before
        ("1970-01-01T05", "1969-12-29"),  // a Thursday
        ("1969-12-28T12", "1969-12-22"),  // a Sunday before 1970
    ])
    func weeksStartOnMonday(local: String, monday: String) {
        var bucketing = SampleBucketing(width: .week)
        bucketing.add(sample("Watch", 60), localStart: Self.local(local))
        #expect(bucketing.buckets(cumulative: false).map(\.start) == [monday])
    }

    @Test func hoursAreLabelledInLocalTimeAndKeepSourcesApart() {
        var bucketing = SampleBucketing(width: .hour)
        for (source, value, at) in [
            ("Watch", 60.0, "2026-03-04T09"), ("Watch", 70.0, "2026-03-04T09"), ("Phone", 100.0, "2026-03-04T09"),
            ("Watch", 80.0, "1969-12-31T23"),
        ] {
            bucketing.add(sample(source, value), localStart: Self.local(at))
        }
        let buckets = bucketing.buckets(cumulative: false)
        #expect(buckets.map(\.start) == ["1969-12-31T23:00", "2026-03-04T09:00", "2026-03-04T09:00"])
        #expect(buckets.map(\.source) == ["Watch", "Phone", "Watch"])
        #expect(buckets[2].avg == 65 && buckets[2].min == 60 && buckets[2].max == 70 && buckets[2].count == 2)
        #expect(buckets[2].sum == nil)
    }

    @Test func cumulativeBucketsSumAndSamplesWithoutValuesAreCountedOnly() {
        var bucketing = SampleBucketing(width: .day)
        bucketing.add(sample("Phone", 100), localStart: Self.local("2026-03-04T09"))
        bucketing.add(sample("Phone", 250), localStart: Self.local("2026-03-04T18"))
        bucketing.add(sample("Ring", nil), localStart: Self.local("2026-03-04T18"))
        let buckets = bucketing.buckets(cumulative: true)
        #expect(buckets.map(\.start) == ["2026-03-04", "2026-03-04"])
        #expect(buckets[0].sum == 350 && buckets[0].avg == nil)
        #expect(buckets[1].count == 1 && buckets[1].sum == nil && buckets[1].min == nil)
    }
}
