import Foundation
import HealthETLCore
import Testing

@testable import HealthETLOutput

/// CSV, NDJSON and FHIR writing of one sample at a time.
@Suite struct SampleFormatTests {
    let catalog = try! MetricCatalog.bundled()

    /// Metric numbers index this list; source 0 is "Anna's Watch", 1 a name with quotes.
    let names = ExportNames(
        metrics: [
            "heart_rate", "step_count", "sleep_analysis", "blood_pressure", "blood_pressure_systolic",
            "blood_pressure_diastolic", "apple_stand_hour",
        ],
        sources: ["Anna's Watch", "Say \"Hi\""], devices: ["name:Watch, model:6"])

    func sample(
        _ metric: String, value: Double? = nil, category: String? = nil, seconds: Int64 = 0,
        offset: Int32? = 3600, source: Int32 = 0, flags: SampleFlags = [], metadata: String? = nil,
        components: [ExportedSample] = []
    ) -> ExportedSample {
        let start = Instant(millisecondsSinceEpoch: 1_709_278_200_000)
        let number = Int32(names.metrics.firstIndex(of: metric)!)
        return ExportedSample(
            id: ContentID(high: UInt64(metric.utf8.count), low: 7), metric: number, source: source, device: 0,
            sourceVersion: "10.2", start: start, end: start.adding(seconds: seconds), utcOffsetSeconds: offset,
            value: value, category: category, flags: flags, metadataJSON: metadata, components: components)
    }

    func written<Format: SampleFormat>(_ format: Format, _ samples: [ExportedSample]) -> String {
        var format = format
        var bytes: [UInt8] = []
        format.begin(names: names, into: &bytes)
        for sample in samples { format.append(sample, into: &bytes) }
        format.finish(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func encoded(_ sample: ExportedSample) throws -> [String: Any] {
        var encoder = FHIRObservationEncoder(catalog: catalog, subject: "Patient/p")
        encoder.begin(names: names)
        var bytes: [UInt8] = []
        encoder.append(sample, into: &bytes)
        return try object(String(decoding: bytes, as: UTF8.self))
    }

    func object(_ text: some StringProtocol) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func csvRowsHaveLocalAndUTCTimesAndTheUnit() {
        let text = written(
            CSVSampleFormat(units: ["heart_rate": "/min"]),
            [sample("heart_rate", value: 72, flags: .outOfPlausibleRange)])
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0] == CSVSampleFormat.columns.joined(separator: ","))
        #expect(
            lines[1]
                == "heart_rate,2024-03-01 08:30:00,2024-03-01 08:30:00,+01:00,2024-03-01T07:30:00Z,2024-03-01T07:30:00Z,72,/min,,Anna's Watch,10.2,\"name:Watch, model:6\",out_of_plausible_range,000000000000000a0000000000000007"
        )
        #expect(lines.count == 3 && lines[2].isEmpty)
    }

    @Test func csvLeavesTheLocalColumnsEmptyWithoutAnOffset() {
        let text = written(
            CSVSampleFormat(units: [:]), [sample("sleep_analysis", category: "asleep_deep", offset: nil)])
        let row = text.components(separatedBy: "\r\n")[1]
        #expect(row.hasPrefix("sleep_analysis,,,,2024-03-01T07:30:00Z,2024-03-01T07:30:00Z,,,asleep_deep,"))
    }

    @Test func ndjsonIsOneObjectPerLineWithMetadataAsStored() throws {
        let text = written(
            NDJSONSampleFormat(units: ["step_count": "{steps}"]),
            [
                sample("step_count", value: 120, seconds: 60, metadata: "[[\"HKWasUserEntered\",\"1\"]]"),
                sample("sleep_analysis", category: "in_bed", seconds: 3600, source: 1),
            ])
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try object(lines[0])
        #expect(first["start"] as? String == "2024-03-01T08:30:00+01:00")
        #expect(first["end"] as? String == "2024-03-01T08:31:00+01:00")
        #expect(first["value"] as? Double == 120)
        #expect(first["unit"] as? String == "{steps}")
        #expect((first["metadata"] as? [[String]]) == [["HKWasUserEntered", "1"]])
        let second = try object(lines[1])
        #expect(second["source"] as? String == "Say \"Hi\"")
        #expect(second["category"] as? String == "in_bed")
        #expect(second["value"] == nil)
    }

    @Test func fhirObservationsCarryLOINCUCUMAndTheirTime() throws {
        let observation = try encoded(sample("heart_rate", value: 72, flags: .summarized))
        let code = try #require(observation["code"] as? [String: Any])
        let codings = try #require(code["coding"] as? [[String: Any]])
        #expect(codings.map { $0["system"] as? String } == [FHIRSystems.loinc, FHIRSystems.metric])
        #expect(codings.map { $0["code"] as? String } == ["8867-4", "heart_rate"])
        #expect(observation["effectiveDateTime"] as? String == "2024-03-01T08:30:00+01:00")
        let quantity = try #require(observation["valueQuantity"] as? [String: Any])
        #expect(quantity["code"] as? String == "/min" && quantity["system"] as? String == FHIRSystems.ucum)
        let category = (observation["category"] as? [[String: Any]])?.first?["coding"] as? [[String: Any]]
        #expect(category?.first?["code"] as? String == "vital-signs")
        let meta = try #require(observation["meta"] as? [String: Any])
        #expect(meta["source"] as? String == "urn:healthetl:source:Anna%27s%20Watch")
        #expect((meta["tag"] as? [[String: Any]])?.first?["code"] as? String == "summarized")
        #expect((observation["subject"] as? [String: Any])?["reference"] as? String == "Patient/p")
    }

    @Test func aPanelCarriesItsComponentsAndAMetricWithoutLOINCSaysSo() throws {
        let observation = try encoded(
            sample(
                "blood_pressure",
                components: [
                    sample("blood_pressure_systolic", value: 121), sample("blood_pressure_diastolic", value: 79),
                ]))
        let components = try #require(observation["component"] as? [[String: Any]])
        let codes = components.map {
            (($0["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String
        }
        #expect(codes == ["8480-6", "8462-4"])
        #expect(components.map { ($0["valueQuantity"] as? [String: Any])?["value"] as? Double } == [121, 79])

        let stand = try encoded(sample("apple_stand_hour", category: "stood", seconds: 3600))
        let code = try #require(stand["code"] as? [String: Any])
        #expect((code["coding"] as? [[String: Any]])?.count == 1)
        #expect((code["text"] as? String)?.contains("no LOINC code") == true)
        #expect((stand["effectivePeriod"] as? [String: Any])?["end"] as? String == "2024-03-01T09:30:00+01:00")
        let value = try #require(stand["valueCodeableConcept"] as? [String: Any])
        #expect((value["coding"] as? [[String: Any]])?.first?["code"] as? String == "stood")
    }

    @Test func aBundleIsOneJSONDocumentWithThePatientFirst() throws {
        let text = written(
            FHIRBundleFormat(catalog: catalog, timestamp: Instant(millisecondsSinceEpoch: 0)),
            [sample("step_count", value: 5, seconds: 60)])
        let bundle = try object(text)
        #expect(bundle["type"] as? String == "collection")
        let entries = try #require(bundle["entry"] as? [[String: Any]])
        #expect(
            entries.map { ($0["resource"] as? [String: Any])?["resourceType"] as? String } == [
                "Patient", "Observation",
            ])
        #expect(entries[1]["fullUrl"] as? String == "urn:uuid:00000000-0000-000a-0000-000000000007")
        let subject = (entries[1]["resource"] as? [String: Any])?["subject"] as? [String: Any]
        #expect(subject?["reference"] as? String == "urn:uuid:" + FHIRPatient.uuid)
    }

    @Test func aPanelShowsItsReadingsFlagsAndSaysWhichReadingIsMissing() throws {
        let observation = try encoded(
            sample(
                "blood_pressure",
                components: [sample("blood_pressure_systolic", value: 260, flags: .outOfPlausibleRange)]))
        let tags = (observation["meta"] as? [String: Any])?["tag"] as? [[String: Any]]
        #expect(tags?.map { $0["code"] as? String } == ["out_of_plausible_range"])
        let components = try #require(observation["component"] as? [[String: Any]])
        #expect(components.count == 2)
        #expect((components[0]["valueQuantity"] as? [String: Any])?["value"] as? Double == 260)
        let absent = components[1]["dataAbsentReason"] as? [String: Any]
        #expect((absent?["coding"] as? [[String: Any]])?.first?["code"] as? String == "unknown")
        // The panel's value is its components: no absence of its own.
        #expect(observation["dataAbsentReason"] == nil)
    }

    @Test func anObservationWithoutAValueSaysWhy() throws {
        let session = try encoded(sample("sleep_analysis", seconds: 600))
        #expect(session["valueCodeableConcept"] == nil && session["valueQuantity"] == nil)
        let absent = try #require(session["dataAbsentReason"] as? [String: Any])
        #expect((absent["coding"] as? [[String: Any]])?.first?["system"] as? String == FHIRSystems.dataAbsentReason)
    }

    @Test func aMetricTheCatalogLacksStillBecomesAnObservation() throws {
        var encoder = FHIRObservationEncoder(catalog: catalog, subject: "Patient/p")
        encoder.begin(names: ExportNames(metrics: ["retired_metric"], sources: ["x"]))
        var bytes: [UInt8] = []
        encoder.append(
            ExportedSample(
                id: ContentID(high: 1, low: 1), metric: 0, source: 0, start: Instant(millisecondsSinceEpoch: 0),
                end: Instant(millisecondsSinceEpoch: 0), value: 3),
            into: &bytes)
        let observation = try object(String(decoding: bytes, as: UTF8.self))
        let code = try #require(observation["code"] as? [String: Any])
        #expect((code["coding"] as? [[String: Any]])?.first?["code"] as? String == "retired_metric")
        #expect((observation["valueQuantity"] as? [String: Any])?["value"] as? Double == 3)
    }
}
