import HealthETLCore
import Testing

@testable import HealthAutoExport

/// Every point shape HAE writes, read into records and checked by the real normalizer: summaries
/// and measurements, heart rate's Min/Avg/Max, blood pressure's components, glucose's meal time,
/// sleep as stages and as nightly totals, every date spelling, and the malformed cases.
@Suite struct HAEPointReaderTests {
    static let catalog = try! MetricCatalog.bundled()
    static let normalizer = Normalizer(catalog: catalog, now: Instant(secondsSinceEpoch: 1_800_000_000))

    /// The items a body's points (and sections) become, read in chunks of seven bytes.
    static func items(_ json: String) throws -> [HAEItem] {
        let reader = HAEPayloadReader(catalog: catalog)
        var items: [HAEItem] = []
        let bytes = Array(json.utf8)
        for start in stride(from: 0, to: bytes.count, by: 7) {
            try bytes[start..<min(bytes.count, start + 7)].withUnsafeBytes { chunk in
                try reader.feed(chunk) { items.append($0) }
            }
        }
        try reader.finish { items.append($0) }
        return items
    }

    static func records(_ json: String) throws -> [RawRecord] {
        try items(json).flatMap { item -> [RawRecord] in
            switch item {
            case .record(let record): [record]
            case .correlation(let panel, let components): [panel] + components
            case .workout: []
            }
        }
    }

    static func metric(_ name: String, units: String? = nil, _ points: String) -> String {
        let unitsMember = units.map { "\"units\":\"\($0)\"," } ?? ""
        return "{\"data\":{\"metrics\":[{\"name\":\"\(name)\",\(unitsMember)\"data\":[\(points)]}]}}"
    }

    static func sample(_ record: RawRecord) -> Sample? {
        switch normalizer.normalize(record) {
        case .accepted(let sample), .flagged(let sample): sample
        case .quarantined: nil
        }
    }

    @Test func aDateOnlyPointIsASummaryOfThePeriodItsDateStarts() throws {
        let records = try Self.records(
            Self.metric(
                "step_count", units: "count",
                """
                {"qty": 7369.14, "date": "2024-02-06 00:00:00 -0800", "source": "Watch|iPhone"},
                {"qty": 120, "date": "2024-02-06 14:00:00 -0800", "source": "Watch|iPhone"},
                {"qty": 12, "date": "2024-02-06 14:31:00 -0800", "source": "Watch|iPhone"}
                """))
        let samples = records.compactMap(Self.sample)
        #expect(samples.count == 3)
        let lengths: [Double] = samples.map { $0.start.seconds(until: $0.end) }
        #expect(lengths == [86_400, 3_600, 60])
        #expect(samples.allSatisfy { $0.flags == [.summarized] })
        #expect(samples.allSatisfy { $0.sourceName == "Watch|iPhone" })
        #expect(samples.first?.value == 7369.14)
    }

    @Test func aPointWithStartAndEndIsAMeasurement() throws {
        let records = try Self.records(
            Self.metric(
                "walking_running_distance", units: "mi",
                """
                {"qty": 0.5, "date": "2024-02-06 14:30:00 -0800", "start": "2024-02-06 14:30:00 -0800",
                 "end": "2024-02-06 14:40:00 -0800", "source": "iPhone"}
                """))
        let sample = try #require(records.first.flatMap(Self.sample))
        #expect(sample.flags.isEmpty)
        #expect(sample.metric == "distance_walking_running")
        #expect(abs((sample.value ?? 0) - 804.672) < 1e-6)
        #expect(sample.start.seconds(until: sample.end) == 600)
    }

    @Test func heartRateTakesTheAverageAndKeepsTheExtremes() throws {
        let records = try Self.records(
            Self.metric(
                "heart_rate", units: "count/min",
                """
                {"Min": 58, "Avg": 64.5, "Max": 80, "date": "2024-02-06 14:30:00 -0800", "source": "Apple Watch"},
                {"Min": 61, "Avg": 61, "Max": 61, "date": "2024-02-06 14:31:17 -0800", "source": "Apple Watch"}
                """))
        let samples = records.compactMap(Self.sample)
        #expect(samples.map(\.value) == [64.5, 61])
        #expect(samples[0].flags == [.summarized])
        #expect(samples[0].metadata.contains(MetadataEntry(key: "hae_min", value: "58")))
        #expect(samples[0].metadata.contains(MetadataEntry(key: "hae_max", value: "80")))
        // Equal extremes: one reading at its instant.
        #expect(samples[1].flags.isEmpty)
        #expect(samples[1].start == samples[1].end)
    }

    @Test func bloodPressureIsAPanelOfTwoReadings() throws {
        let items = try Self.items(
            Self.metric(
                "blood_pressure", units: "mmHg",
                #"{"systolic": 121, "diastolic": 79, "date": "2024-02-06 07:30:00 +0100", "source": "Omron"}"#))
        guard case .correlation(let panel, let components) = try #require(items.first) else {
            Issue.record("not a panel: \(items)")
            return
        }
        #expect(panel.type == "blood_pressure")
        #expect(components.map(\.type) == ["blood_pressure_systolic", "blood_pressure_diastolic"])
        let samples = components.compactMap(Self.sample)
        #expect(samples.map(\.value) == [121, 79])
        #expect(samples.allSatisfy { $0.start == $0.end && $0.utcOffsetSeconds == 3600 && $0.flags.isEmpty })
    }

    @Test func bloodGlucoseKeepsItsMealTime() throws {
        let records = try Self.records(
            Self.metric(
                "blood_glucose", units: "mmol/L",
                #"{"qty": 5.4, "date": "2024-02-06 08:00:00 -0800", "mealTime": "Before Meal", "source": "Dexcom"}"#))
        let sample = try #require(records.first.flatMap(Self.sample))
        #expect(sample.metadata.contains(MetadataEntry(key: "hae_mealTime", value: "Before Meal")))
        #expect(abs((sample.value ?? 0) - 97.3) < 0.1)
    }

    @Test func sleepStagesAreMeasurementsAndNightlyTotalsTwoSummaries() throws {
        let stages = try Self.records(
            Self.metric(
                "sleep_analysis",
                """
                {"startDate": "2024-02-06 01:00:00 -0800", "endDate": "2024-02-06 01:40:00 -0800", "qty": 0.67,
                 "value": "Deep", "source": "Apple Watch"},
                {"startDate": "2024-02-06 01:40:00 -0800", "endDate": "2024-02-06 02:00:00 -0800", "qty": 0.33,
                 "value": "REM", "source": "Apple Watch"}
                """))
        #expect(stages.compactMap(Self.sample).map(\.category) == ["asleep_deep", "asleep_rem"])
        #expect(stages.compactMap(Self.sample).allSatisfy { $0.flags.isEmpty })

        let version1 = """
            {"date": "2024-02-06 00:00:00 -0800", "asleep": 7.1, "inBed": 8, "sleepStart": "2024-02-05 23:10:00 -0800",
             "sleepEnd": "2024-02-06 06:16:00 -0800", "inBedStart": "2024-02-05 23:00:00 -0800",
             "inBedEnd": "2024-02-06 07:00:00 -0800", "sleepSource": "Apple Watch", "inBedSource": "iPhone"}
            """
        let version2 = """
            {"date": "2024-02-06 00:00:00 -0800", "totalSleep": 7.1, "asleep": 0, "core": 4, "deep": 1.2, "rem": 1.9,
             "sleepStart": "2024-02-05 23:10:00 -0800", "sleepEnd": "2024-02-06 06:16:00 -0800",
             "inBedStart": "2024-02-05 23:00:00 -0800", "inBedEnd": "2024-02-06 07:00:00 -0800", "inBed": 8,
             "source": "Apple Watch"}
            """
        for (night, inBedSource) in [(version1, "iPhone"), (version2, "Apple Watch")] {
            let samples = try Self.records(Self.metric("sleep_analysis", night)).compactMap(Self.sample)
            #expect(samples.map(\.category) == ["in_bed", "asleep_unspecified"])
            #expect(samples.map(\.sourceName) == [inBedSource, "Apple Watch"])
            #expect(samples.allSatisfy { $0.flags == [.summarized] })
            let lengths: [Double] = samples.map { $0.start.seconds(until: $0.end) }
            #expect(lengths == [28_800, 25_560])
        }
    }

    @Test(arguments: [
        "2024-02-06 20:04:45 +0800", "2024-02-06 8:04:45 PM +0800", "2024-02-06 8:04:45\u{202F}PM +0800",
        "2024-02-06 08:04:45 PM +0800",
    ])
    func everyDateSpellingReadsAsTheSameInstant(_ date: String) throws {
        let records = try Self.records(
            Self.metric("resting_heart_rate", units: "count/min", #"{"qty": 52, "date": "\#(date)"}"#))
        let sample = try #require(records.first.flatMap(Self.sample))
        #expect(sample.start == Instant(secondsSinceEpoch: 1_707_221_085))
        #expect(sample.utcOffsetSeconds.map(Int.init) == 28_800)
    }

    struct Refusal: Sendable, CustomStringConvertible {
        let point: String
        let name: String
        let reason: QuarantineReason
        var description: String { "\(reason): \(point)" }
    }

    @Test(arguments: [
        Refusal(
            point: #"{"qty": 1, "date": "2024-02-06 08:00:00 -0800"}"#, name: "no_such_metric", reason: .unknownType),
        Refusal(point: #"{"qty": 1e308, "date": "2024-02-06 08:00:00 -0800"}"#, name: "step_count", reason: .hardLimit),
        Refusal(
            point: #"{"qty": "many", "date": "2024-02-06 08:00:00 -0800"}"#, name: "step_count",
            reason: .unparseableValue),
        Refusal(
            point: #"{"qty": {"n": 1}, "date": "2024-02-06 08:00:00 -0800"}"#, name: "step_count",
            reason: .unparseableValue),
        Refusal(point: #"{"qty": 1, "date": "06/02/2024 08:00"}"#, name: "step_count", reason: .unparseableDate),
        Refusal(point: #"{"qty": 1, "date": 20240206}"#, name: "step_count", reason: .unparseableDate),
        Refusal(point: #"{"qty": 1, "date": "2024-02-06 08:00:00 -0800"}"#, name: "step_count", reason: .unknownUnit),
        Refusal(point: "7", name: "step_count", reason: .unparseableDate),
    ])
    func aBadPointIsQuarantinedWithItsReason(_ refusal: Refusal) throws {
        let units = refusal.reason == .unknownUnit ? "furlongs" : "count"
        let records = try Self.records(Self.metric(refusal.name, units: units, refusal.point))
        #expect(records.count == 1)
        guard case .quarantined(let quarantined) = Self.normalizer.normalize(try #require(records.first)) else {
            Issue.record("accepted: \(records)")
            return
        }
        #expect(quarantined.reason == refusal.reason)
        if refusal.reason == .unknownType { #expect(quarantined.detail.contains("no_such_metric")) }
    }

    @Test func theSamePointReadTwiceHasTheSameIdentity() throws {
        let body = Self.metric("step_count", units: "count", #"{"qty": 40, "date": "2024-02-06 14:00:00 -0800"}"#)
        let first = try Self.records(body).compactMap(Self.sample)
        let again = try Self.records(body).compactMap(Self.sample)
        #expect(first.map(\.id) == again.map(\.id))
        #expect(first.count == 1)
    }
}
