import HealthETLCore
import Testing

@testable import HealthAutoExport

/// Summarized category metrics (`apple_stand_hour`, `handwashing`, `toothbrushing`, and the
/// `medication` events) are a count of events per period: stored as that count, flagged
/// summarized, so the day shows it — below events stored one by one, as every summary ranks. And
/// the names HAE writes that the catalog had missed (`medication`,
/// `downhill_snow_sports_distance`) are read.
@Suite struct HAESummarizedCountTests {
    typealias P = HAEPointReaderTests

    static func summary(_ name: String, qty: String, date: String = "2024-02-06 00:00:00 -0800") -> String {
        P.metric(name, units: "count", "{\"qty\": \(qty), \"date\": \"\(date)\", \"source\": \"Watch\"}")
    }

    static func samples(_ json: String) throws -> [Sample] {
        try P.records(json).compactMap(P.sample)
    }

    @Test(arguments: ["apple_stand_hour", "handwashing", "toothbrushing", "medication"])
    func aSummarizedCountIsStoredAndTheDayShowsIt(_ name: String) throws {
        let samples = try Self.samples(Self.summary(name, qty: "7"))
        let sample = try #require(samples.first, "\(name) summarized was quarantined")
        #expect(sample.value == 7)
        #expect(sample.category == nil)
        #expect(sample.flags.contains(.summarized))
        let metric = try #require(P.catalog.metric(named: name)).definition
        let rollups = DailyRollupCalculator(metric: metric).rollups(for: samples)
        #expect(rollups.map(\.count) == [7])
        #expect(rollups.first?.day == CivilDate(year: 2024, month: 2, day: 6))
    }

    @Test func eventsStoredOneByOneOutrankTheSummaryOfTheirDay() throws {
        // The watch's own stand hours, as an Apple export holds them.
        let raw = (8...10).compactMap { hour in
            P.sample(
                RawRecord(
                    type: "HKCategoryTypeIdentifierAppleStandHour", sourceName: "Watch",
                    value: .text("HKCategoryValueAppleStandHourStood"),
                    start: HAEFields.time(.string("2024-02-06 \(hour):00:00 -0800")),
                    end: HAEFields.time(.string("2024-02-06 \(hour):59:00 -0800"))))
        }
        #expect(raw.count == 3)
        let summarized = try Self.samples(Self.summary("apple_stand_hour", qty: "7"))
        let nextDay = try Self.samples(Self.summary("apple_stand_hour", qty: "5", date: "2024-02-07 00:00:00 -0800"))
        let metric = try #require(P.catalog.metric(named: "apple_stand_hour")).definition
        let rollups = DailyRollupCalculator(metric: metric).rollups(for: raw + summarized + nextDay)
        #expect(rollups.map(\.count) == [3, 5], "the day with events counts them; the day without, the summary")
    }

    @Test(arguments: ["1.5", "-1", "2000000", "\"many\""])
    func aSummarizedCountThatIsNoCountIsQuarantined(_ qty: String) throws {
        let records = try P.records(Self.summary("handwashing", qty: qty))
        guard case .quarantined(let refused) = P.normalizer.normalize(try #require(records.first)) else {
            Issue.record("\(qty) was stored as a count")
            return
        }
        #expect([.hardLimit, .unparseableValue].contains(refused.reason))
        #expect(refused.detail.contains("counts events"))
    }

    @Test func medicationsAndDownhillDistanceAreRead() throws {
        let distance = try Self.samples(
            P.metric(
                "downhill_snow_sports_distance", units: "km",
                #"{"qty": 12.5, "start": "2024-02-06 10:00:00 -0800", "end": "2024-02-06 12:00:00 -0800"}"#))
        #expect(distance.map(\.metric) == ["distance_downhill_snow_sports"])
        #expect(distance.first?.value == 12_500)
        let medications = try Self.samples(
            #"{"data": {"medications": [{"displayText": "Ibuprofen 200 mg", "start": "2024-02-06 08:00:00 -0800", "#
                + #""end": "2024-02-06 08:00:00 -0800", "status": "taken"}]}}"#)
        #expect(medications.map(\.metric) == ["medication_dose"])
        #expect(medications.first?.valueAsWritten == "Ibuprofen 200 mg")
    }

    @Test func theCoverageListCountsTheNewNames() throws {
        let coverage = CatalogCoverage(catalog: P.catalog, lists: try SourceTypeList.bundled())
        let hae = try #require(coverage.formats.first { $0.id == "health_auto_export" })
        #expect(!hae.unmapped.contains("medication"))
        #expect(!hae.unmapped.contains("downhill_snow_sports_distance"))
        #expect(hae.total >= 182)
    }
}
