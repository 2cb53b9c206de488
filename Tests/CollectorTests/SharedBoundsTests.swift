import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Testing

@testable import HealthETLServer

/// One set of bounds on both sides: what the importer stores, the collector accepts, and what the
/// collector refuses, the importer quarantines — so nothing stored locally is undeliverable.
@Suite struct SharedBoundsTests {
    let catalog = try! MetricCatalog.bundled()
    var normalizer: Normalizer { Normalizer(catalog: catalog, now: Instant(secondsSinceEpoch: 7_258_000_000)) }

    private func steps(_ value: String = "10", start: String, end: String? = nil) -> RawRecord {
        RecordFixtures.record(
            type: "HKQuantityTypeIdentifierStepCount", value: value, unit: "count", start: start, end: end)
    }

    /// The sample the importer stores, if it stores one, and whether the collector takes it.
    private func outcome(_ record: RawRecord) -> (stored: Bool, delivered: Bool) {
        guard let sample = normalizer.sample(from: record) else { return (false, false) }
        let validated = BatchValidator(catalog: catalog).validate(
            WireBatch(batchID: "bounds", samples: [WireSample(sample)], deletions: []))
        return (true, validated.rejections.isEmpty)
    }

    @Test func whatTheImporterStoresAtTheEdgesTheCollectorAccepts() {
        let edges = [
            steps(start: "1900-01-01T00:00:00Z"),
            steps(start: "2199-12-31T23:59:59Z"),
            steps(start: "2024-03-01 08:00:00 +1800"),
            steps(start: "2024-03-01 08:00:00 -1800"),
            steps(start: "2023-01-01T00:00:00Z", end: "2024-02-05T00:00:00Z"),  // 400 days
            steps("1000000000000", start: "2024-03-01T08:00:00Z"),
        ]
        for record in edges {
            let result = outcome(record)
            #expect(result.stored && result.delivered, "\(record.start) \(record.value)")
        }
    }

    @Test func whatTheCollectorWouldRefuseTheImporterQuarantines() {
        let beyond = [
            steps(start: "1899-12-31T23:59:59Z"),
            steps(start: "2200-01-01T00:00:00Z"),
            steps(start: "2024-03-01 08:00:00 +1830"),
            steps(start: "2023-01-01T00:00:00Z", end: "2024-02-05T00:00:01Z"),
            steps(start: "0001-01-01T00:00:00+0100", end: "9999-12-31T00:00:00+0100"),
            steps("10000000000000", start: "2024-03-01T08:00:00Z"),
        ]
        for record in beyond {
            #expect(!outcome(record).stored, "\(record.start) \(record.value)")
        }
    }

    /// A summarized count of a category's events (HAE's stand hours of a day) is delivered as the
    /// count it was stored as; what is no count is neither stored nor accepted.
    @Test func aSummarizedCountIsStoredAndDeliveredAndANonCountNeither() {
        func standHours(_ value: String) -> RawRecord {
            var record = RecordFixtures.record(
                type: "HKCategoryTypeIdentifierAppleStandHour", value: value, unit: "count",
                start: "2024-03-01T00:00:00Z", end: "2024-03-02T00:00:00Z")
            record.isSummary = true
            return record
        }
        let seven = outcome(standHours("7"))
        #expect(seven.stored && seven.delivered)
        for value in ["7.5", "-1", "1000001", "nan"] {
            #expect(outcome(standHours(value)) == (false, false), "\(value)")
        }
        // A client that sends one anyway is refused by the collector itself.
        var sample = normalizer.sample(from: standHours("7"))!
        sample.value = 1e9
        let refused = BatchValidator(catalog: catalog).validate(
            WireBatch(batchID: "count", samples: [WireSample(sample)], deletions: []))
        #expect(refused.rejections.count == 1)
    }
}
