import Foundation
import HealthETLTestSupport
import Testing

@testable import HealthETLCore

/// The normalizer against a small catalog written here, so every limit the tests probe is visible
/// next to them (the bundled catalog is exercised in `UnitConversionTests` and `CatalogTests`).
struct NormalizerTests {
    static let catalogJSON = """
        {
          "format": 1,
          "unit_sets": {
            "rate": {"canonical": "/min", "units": {"/min": 1, "count/min": 1, "count/s": 60}},
            "steps": {"canonical": "{steps}", "units": {"{steps}": 1, "count": 1}},
            "temperature": {"canonical": "Cel", "units": {"Cel": 1,
              "degF": {"scale": 0.5555555555555556, "offset": -17.77777777777778}}}
          },
          "categories": {
            "sleep_stage": {"values": {
              "HKCategoryValueSleepAnalysisInBed": "in_bed",
              "HKCategoryValueSleepAnalysisAsleep": "asleep_unspecified",
              "HKCategoryValueSleepAnalysisAsleepUnspecified": "asleep_unspecified",
              "HKCategoryValueSleepAnalysisAsleepCore": "asleep_core",
              "HKCategoryValueSleepAnalysisAsleepDeep": "asleep_deep",
              "HKCategoryValueSleepAnalysisAsleepREM": "asleep_rem",
              "HKCategoryValueSleepAnalysisAwake": "awake"}},
            "event": {"values": {"HKCategoryValueNotApplicable": "not_applicable"}}
          },
          "metrics": [
            {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics",
             "healthkit": "HKQuantityTypeIdentifierHeartRate", "health_connect": "HeartRate",
             "unit": "/min", "unit_set": "rate",
             "hard": {"min": 0, "max": 400}, "plausible": {"min": 25, "max": 250}},
            {"id": "body_temperature", "kind": "discrete", "aggregation": "statistics",
             "unit": "Cel", "unit_set": "temperature", "hard": {"min": 0, "max": 100},
             "plausible": {"min": 30, "max": 45}},
            {"id": "step_count", "kind": "cumulative", "aggregation": "sum",
             "healthkit": "HKQuantityTypeIdentifierStepCount", "unit": "{steps}", "unit_set": "steps",
             "hard": {"min": 0}, "plausible": {"min": 0, "max": 100000}},
            {"id": "sleep_analysis", "kind": "category", "aggregation": "duration",
             "healthkit": "HKCategoryTypeIdentifierSleepAnalysis", "category": "sleep_stage",
             "plausible_max_duration_s": 57600},
            {"id": "high_heart_rate_event", "kind": "category", "aggregation": "count",
             "healthkit": "HKCategoryTypeIdentifierHighHeartRateEvent", "category": "event",
             "value_optional": true},
            {"id": "workout", "kind": "interval", "aggregation": "duration",
             "healthkit": "HKWorkoutTypeIdentifier", "value_optional": true},
            {"id": "hydration_session", "kind": "interval", "aggregation": "count"},
            {"id": "blood_pressure", "kind": "correlation", "aggregation": "panel",
             "value_optional": true, "components": ["heart_rate"]}
          ]
        }
        """

    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let highHeartRate = "HKCategoryTypeIdentifierHighHeartRateEvent"

    let normalizer: Normalizer

    init() throws {
        let catalog = try MetricCatalog(json: Data(Self.catalogJSON.utf8), file: "normalizer-test.json")
        normalizer = Normalizer(catalog: catalog, now: RecordFixtures.now)
    }

    func record(
        type: String = NormalizerTests.heartRate, value: String? = "72", unit: String? = "count/min",
        start: String = "2024-03-01 08:00:00 +0100", end: String? = nil
    ) -> RawRecord {
        RecordFixtures.record(type: type, value: value, unit: unit, start: start, end: end)
    }

    func sample(
        _ outcome: NormalizationOutcome, flags expected: SampleFlags = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Sample? {
        switch outcome {
        case .accepted(let sample):
            #expect(
                expected.isEmpty, "accepted, expected flags \(expected.names)", sourceLocation: sourceLocation
            )
            #expect(sample.flags.isEmpty, sourceLocation: sourceLocation)
            return sample
        case .flagged(let sample):
            #expect(
                sample.flags == expected, "flags \(sample.flags.names), expected \(expected.names)",
                sourceLocation: sourceLocation)
            return sample
        case .quarantined(let record):
            Issue.record(
                "quarantined (\(record.reason.rawValue): \(record.detail))", sourceLocation: sourceLocation)
            return nil
        }
    }

    func quarantine(
        _ outcome: NormalizationOutcome, _ reason: QuarantineReason,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> QuarantinedRecord? {
        guard case .quarantined(let record) = outcome else {
            Issue.record(
                "expected quarantine \(reason.rawValue), got \(outcome)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(record.reason == reason, "\(record.detail)", sourceLocation: sourceLocation)
        return record
    }

    // MARK: - Accepted

    @Test func acceptedSampleCarriesEveryField() throws {
        let raw = RawRecord(
            type: Self.heartRate, sourceName: "Simon’s Apple Watch", sourceVersion: "10.3",
            device: "Apple Watch", unit: "count/min", value: .text("72"),
            start: .text("2024-03-01 08:00:00 +0100"), end: .text("2024-03-01 08:01:00 +0100"),
            metadata: [MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "0")])
        let outcome = normalizer.normalize(raw)
        guard case .accepted(let sample) = outcome else {
            Issue.record("expected accepted, got \(outcome)")
            return
        }
        #expect(sample.metric == "heart_rate")
        #expect(sample.value == 72)
        #expect(sample.category == nil)
        // 08:00 at +01:00 is 07:00Z: 19_783 days × 86_400_000 + 7 h (25_200_000) = 1_709_276_400_000
        #expect(sample.start.millisecondsSinceEpoch == 1_709_276_400_000)
        #expect(sample.end.millisecondsSinceEpoch == 1_709_276_460_000)
        #expect(sample.utcOffsetSeconds == 3_600)
        #expect(sample.sourceName == "Simon’s Apple Watch")
        #expect(sample.sourceVersion == "10.3")
        #expect(sample.device == "Apple Watch")
        #expect(sample.valueAsWritten == "72")
        #expect(sample.unitAsWritten == "count/min")
        #expect(sample.metadata == raw.metadata)
        // The pinned id of ContentIDTests: SHA-256 (Python hashlib) over
        // v1␟heart_rate␟Simon’s Apple Watch␟1709276400000␟1709276460000␟72␟count/min␟
        #expect(sample.id.description == "5383c6a46440070c9d81e93f63469a21")
    }

    @Test func identityIgnoresHowTheDatesWereWritten() throws {
        let a = try #require(sample(normalizer.normalize(record(start: "2024-03-01 08:00:00 +0100"))))
        let b = try #require(sample(normalizer.normalize(record(start: "2024-03-01T07:00:00Z"))))
        let c = try #require(sample(normalizer.normalize(record(start: "2024-02-29 23:00:00 -0800"))))
        #expect(a.id == b.id && b.id == c.id)
        #expect(a.utcOffsetSeconds == 3_600 && b.utcOffsetSeconds == 0 && c.utcOffsetSeconds == -28_800)
        // …but not the value as written
        let d = try #require(sample(normalizer.normalize(record(value: "72.0"))))
        #expect(d.id != a.id)
        #expect(d.value == 72)
    }

    @Test func lookupByAnyIdentifier() throws {
        for type in ["heart_rate", "HeartRate", Self.heartRate] {
            let s = try #require(sample(normalizer.normalize(record(type: type))))
            #expect(s.metric == "heart_rate")
        }
    }

    @Test func binaryValuesAndTimes() throws {
        let start = Timestamp(
            instant: Instant(millisecondsSinceEpoch: 1_709_276_400_000), utcOffsetSeconds: nil)
        let raw = RawRecord(
            type: "HeartRate", sourceName: "Pixel", unit: "count/s", value: .number(1.2),
            start: .timestamp(start), end: .timestamp(start))
        let s = try #require(sample(normalizer.normalize(raw)))
        // 1.2 /s × 60 = 72 /min
        #expect(abs(try #require(s.value) - 72) <= 72e-9)
        #expect(s.valueAsWritten == "1.2")
        #expect(s.utcOffsetSeconds == nil)
        #expect(s.start == start.instant)
    }

    @Test func unitsAreConvertedBeforeStoring() throws {
        // 98.6 degF = (98.6 − 32) × 5/9 = 37 Cel
        let s = try #require(
            sample(normalizer.normalize(record(type: "body_temperature", value: "98.6", unit: "degF"))))
        #expect(abs(try #require(s.value) - 37) <= 37e-9)
        #expect(s.unitAsWritten == "degF")
    }

    // MARK: - Quarantine reasons

    @Test func unknownType() throws {
        let q = try #require(
            quarantine(normalizer.normalize(record(type: "HKQuantityTypeIdentifierNope")), .unknownType))
        #expect(q.detail.contains("HKQuantityTypeIdentifierNope"))
    }

    @Test(arguments: [
        "yesterday", "", "2024-13-01 08:00:00 +0100", "2024-03-01 08:00 +0100", "2023-02-29 08:00:00 +0100",
    ])
    func unparseableStartDate(_ text: String) throws {
        let q = try #require(
            quarantine(
                normalizer.normalize(record(start: text, end: "2024-03-01 08:01:00 +0100")), .unparseableDate)
        )
        #expect(q.detail.contains("start"))
        #expect(q.detail.contains("\"\(text)\""))
    }

    @Test(arguments: ["tomorrow", "2024-03-01 25:00:00 +0100", "2024-03-01 08:01:00 +0100 junk"])
    func unparseableEndDate(_ text: String) throws {
        let q = try #require(quarantine(normalizer.normalize(record(end: text)), .unparseableDate))
        #expect(q.detail.contains("end"))
        #expect(!q.detail.contains("start"))
        #expect(q.detail.contains("\"\(text)\""))
    }

    @Test(arguments: ["NaN", "nan", "inf", "-inf", "Infinity", "abc", "", "72 bpm", "7 2", "1e400"])
    func unparseableTextValue(_ text: String) throws {
        _ = try #require(quarantine(normalizer.normalize(record(value: text)), .unparseableValue))
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func unparseableNumberValue(_ number: Double) throws {
        let raw = RawRecord(
            type: "heart_rate", sourceName: "Pixel", unit: "/min", value: .number(number),
            start: .text("2024-03-01T07:00:00Z"), end: .text("2024-03-01T07:00:00Z"))
        _ = try #require(quarantine(normalizer.normalize(raw), .unparseableValue))
    }

    @Test func missingValue() throws {
        // a quantity
        _ = try #require(quarantine(normalizer.normalize(record(value: nil)), .missingValue))
        _ = try #require(
            quarantine(
                normalizer.normalize(record(type: Self.steps, value: nil, unit: "count")), .missingValue))
        // a category whose value is not optional
        _ = try #require(
            quarantine(normalizer.normalize(record(type: Self.sleep, value: nil, unit: nil)), .missingValue))
        // an interval whose value is not optional
        _ = try #require(
            quarantine(
                normalizer.normalize(record(type: "hydration_session", value: nil, unit: nil)), .missingValue)
        )
    }

    @Test func missingUnit() throws {
        _ = try #require(quarantine(normalizer.normalize(record(unit: nil)), .missingUnit))
        _ = try #require(quarantine(normalizer.normalize(record(unit: "")), .missingUnit))
    }

    @Test(arguments: ["furlong", "bpm", "COUNT/MIN", "count/min ", "{steps}"])
    func unknownUnit(_ unit: String) throws {
        let q = try #require(quarantine(normalizer.normalize(record(unit: unit)), .unknownUnit))
        #expect(q.detail.contains("\"\(unit)\""))
        // the detail lists what is accepted
        #expect(q.detail.contains("/min, count/min, count/s"))
    }

    @Test(arguments: ["HKCategoryValueSleepAnalysisNap", "asleep", "ASLEEP_REM", "not_applicable"])
    func unknownCategoryValue(_ value: String) throws {
        let q = try #require(
            quarantine(
                normalizer.normalize(record(type: Self.sleep, value: value, unit: nil)), .unknownCategoryValue
            ))
        #expect(q.detail.contains(value))
    }

    @Test(arguments: [
        ("401", "count/min"), ("-1", "count/min"), ("-0.001", "/min"), ("1e9", "/min"),
        // 7 /s × 60 = 420 /min: the limit applies to the canonical value
        ("7", "count/s"),
    ])
    func hardLimit(value: String, unit: String) throws {
        let q = try #require(quarantine(normalizer.normalize(record(value: value, unit: unit)), .hardLimit))
        #expect(q.detail.contains("[0, 400]"))
    }

    @Test(arguments: [("0", "count/min"), ("400", "count/min"), ("6.5", "count/s")])
    func hardLimitsAreInclusive(value: String, unit: String) throws {
        // 0 and 400 are on the limits; 6.5 /s × 60 = 390 /min is inside. Out of the plausible range, so flagged.
        let outcome = normalizer.normalize(record(value: value, unit: unit))
        guard case .flagged(let s) = outcome else {
            Issue.record("expected flagged, got \(outcome)")
            return
        }
        #expect(s.flags == .outOfPlausibleRange)
    }

    @Test func hardLimitOnCumulativeIsNotScaledPerDay() throws {
        _ = try #require(
            quarantine(normalizer.normalize(record(type: Self.steps, value: "-1", unit: "count")), .hardLimit)
        )
    }

    @Test func endBeforeStart() throws {
        let q = try #require(
            quarantine(
                normalizer.normalize(
                    record(start: "2024-03-01 08:00:00 +0100", end: "2024-03-01 07:59:59 +0100")),
                .endBeforeStart))
        #expect(q.detail.contains("1.0 s"))
        // the same instant written at another offset is not "before"
        _ = try #require(
            sample(
                normalizer.normalize(record(start: "2024-03-01 08:00:00 +0100", end: "2024-03-01T07:00:00Z")))
        )
        // a later wall-clock time at a larger offset can be an earlier instant: 08:30 +0200 = 06:30Z < 07:00Z
        _ = try #require(
            quarantine(
                normalizer.normalize(
                    record(start: "2024-03-01 08:00:00 +0100", end: "2024-03-01 08:30:00 +0200")),
                .endBeforeStart))
    }

    @Test func everyQuarantineReasonIsReachable() {
        var counted = record()
        counted.start = .deviceRelative(775)
        counted.end = .deviceRelative(775)
        let cases: [(QuarantineReason, RawRecord)] = [
            (.unknownType, record(type: "nope")),
            (.unparseableDate, record(start: "nope")),
            (.deviceRelativeTime, counted),
            (.unparseableValue, record(value: "nope")),
            (.missingValue, record(value: nil)),
            (.missingUnit, record(unit: nil)),
            (.unknownUnit, record(unit: "nope")),
            (.unknownCategoryValue, record(type: Self.sleep, value: "nope", unit: nil)),
            (.hardLimit, record(value: "1000")),
            (.endBeforeStart, record(start: "2024-03-01T08:00:00Z", end: "2024-03-01T07:00:00Z")),
            (.dateOutOfRange, record(start: "1899-12-31T23:00:00Z")),
            (.utcOffsetOutOfRange, record(start: "2024-03-01 08:00:00 +1830")),
            (.spanTooLong, record(start: "2020-01-01T00:00:00+0100", end: "2024-01-01T00:00:00+0100")),
        ]
        #expect(Set(cases.map(\.0)) == Set(QuarantineReason.allCases))
        for (reason, raw) in cases {
            guard case .quarantined(let q) = normalizer.normalize(raw) else {
                Issue.record("\(reason) not quarantined")
                continue
            }
            #expect(q.reason == reason)
        }
        #expect(
            QuarantineReason.allCases.map(\.rawValue) == [
                "unknown_type", "unparseable_date", "device_relative_time", "unparseable_value", "missing_value",
                "missing_unit",
                "unknown_unit", "unknown_category_value", "hard_limit", "end_before_start", "date_out_of_range",
                "utc_offset_out_of_range", "span_too_long",
            ])
    }

    @Test func checksRunInOrder() throws {
        // the type is checked before the dates, the dates before the value, the value before the unit
        _ = try #require(
            quarantine(normalizer.normalize(record(type: "nope", value: "x", start: "x")), .unknownType))
        _ = try #require(
            quarantine(
                normalizer.normalize(record(value: "x", unit: "furlong", start: "x")), .unparseableDate))
        _ = try #require(quarantine(normalizer.normalize(record(value: "x", unit: nil)), .unparseableValue))
    }

    // MARK: - Quarantined records keep their raw form

    @Test func quarantinedRecordsKeepTheirRawForm() throws {
        let raw = RawRecord(
            type: Self.heartRate, sourceName: "Simon’s \"Watch\"", sourceVersion: "10.3",
            device: "<<HKDevice: 0x600>, name:Apple Watch>", unit: "furlong", value: .text("72.50"),
            start: .text("2024-03-01 08:00:00 +0100"), end: .text("2024-03-01 08:01:00 +0100"),
            metadata: [MetadataEntry(key: "HKTimeZone", value: "Europe/Berlin")])
        let q = try #require(quarantine(normalizer.normalize(raw), .unknownUnit))
        #expect(q.raw == raw)
        let json = q.raw.rawJSON
        for fragment in [
            #""type":"HKQuantityTypeIdentifierHeartRate""#, #""sourceName":"Simon’s \"Watch\"""#,
            #""sourceVersion":"10.3""#, #""device":"<<HKDevice: 0x600>, name:Apple Watch>""#,
            #""unit":"furlong""#, #""value":"72.50""#, #""startDate":"2024-03-01 08:00:00 +0100""#,
            #""endDate":"2024-03-01 08:01:00 +0100""#, #""metadata":[["HKTimeZone","Europe/Berlin"]]"#,
        ] {
            #expect(json.contains(fragment), "\(json) lacks \(fragment)")
        }
        // the raw form is valid JSON
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["sourceName"] as? String == "Simon’s \"Watch\"")
        #expect(object?["startDate"] as? String == "2024-03-01 08:00:00 +0100")
    }

    @Test func quarantineIDIsStable() throws {
        let raw = record(value: "abc", start: "2024-03-01 08:00:00 +0100")
        let first = try #require(quarantine(normalizer.normalize(raw), .unparseableValue))
        // Pinned, computed with Python's hashlib over the layout QuarantinedRecord documents: the
        // content-id bytes with metric = type, start = end = 0 ms and value = start␟end␟value as written:
        //     s = '2024-03-01 08:00:00 +0100'
        //     cid('HKQuantityTypeIdentifierHeartRate', 'Simon’s Apple Watch', '0', '0',
        //         s + '\x1f' + s + '\x1f' + 'abc', 'count/min')
        #expect(first.id.description == "ea32b3a6d34dda5651be8bb48535f382")
        // another normalizer, another "now", another reason or detail: same id
        let later = Normalizer(catalog: normalizer.catalog, now: Instant(secondsSinceEpoch: 2_000_000_000))
        let second = try #require(quarantine(later.normalize(raw), .unparseableValue))
        #expect(first.id == second.id)
        #expect(QuarantinedRecord(reason: .unknownUnit, detail: "other", raw: raw).id == first.id)
        // every raw field as written is part of the id — including the same instant written
        // differently, since a quarantined record's dates are kept only as written
        let variants: [(String, RawRecord)] = [
            ("type", record(type: "heart_rate", value: "abc")),
            ("source", RecordFixtures.record(value: "abc", source: "iPhone")),
            ("start", record(value: "abc", start: "2024-03-01T07:00:00Z", end: "2024-03-01 08:00:00 +0100")),
            ("end", record(value: "abc", start: "2024-03-01 08:00:00 +0100", end: "2024-03-01T07:00:00Z")),
            ("value", record(value: "abd")),
            ("unit", record(value: "abc", unit: "/min")),
        ]
        for (field, variant) in variants {
            let q = try #require(quarantine(normalizer.normalize(variant), .unparseableValue))
            #expect(q.id != first.id, "changing \(field) must change the id")
        }
    }

    // MARK: - Flags

    @Test(arguments: [
        ("24", SampleFlags.outOfPlausibleRange), ("25", SampleFlags()), ("72", SampleFlags()),
        ("250", SampleFlags()),
        ("250.5", SampleFlags.outOfPlausibleRange), ("0.5", SampleFlags.outOfPlausibleRange),
    ])
    func outOfPlausibleRangeForDiscrete(value: String, flags: SampleFlags) throws {
        let s = try #require(sample(normalizer.normalize(record(value: value)), flags: flags))
        #expect(s.value == Double(value))
    }

    @Test func plausibleRangeAppliesToTheCanonicalValue() throws {
        // 4.5 /s × 60 = 270 /min > 250
        _ = try #require(
            sample(normalizer.normalize(record(value: "4.5", unit: "count/s")), flags: .outOfPlausibleRange))
        // 0.4 /s × 60 = 24 /min < 25
        _ = try #require(
            sample(normalizer.normalize(record(value: "0.4", unit: "count/s")), flags: .outOfPlausibleRange))
        // 1 /s × 60 = 60 /min
        _ = try #require(sample(normalizer.normalize(record(value: "1", unit: "count/s"))))
    }

    /// step_count allows 100_000 steps per day; a sample spanning d days (at least 1) may hold d × 100_000.
    @Test(arguments: [
        // one minute counts as one day
        ("2024-03-01T00:00:00Z", "2024-03-01T00:01:00Z", "100000", SampleFlags()),
        ("2024-03-01T00:00:00Z", "2024-03-01T00:01:00Z", "100001", SampleFlags.outOfPlausibleRange),
        // exactly one day
        ("2024-03-01T00:00:00Z", "2024-03-02T00:00:00Z", "100000", SampleFlags()),
        ("2024-03-01T00:00:00Z", "2024-03-02T00:00:00Z", "100001", SampleFlags.outOfPlausibleRange),
        // two days: 2 × 100_000
        ("2024-03-01T00:00:00Z", "2024-03-03T00:00:00Z", "200000", SampleFlags()),
        ("2024-03-01T00:00:00Z", "2024-03-03T00:00:00Z", "200001", SampleFlags.outOfPlausibleRange),
        // 36 hours = 1.5 days: 150_000
        ("2024-03-01T00:00:00Z", "2024-03-02T12:00:00Z", "150000", SampleFlags()),
        ("2024-03-01T00:00:00Z", "2024-03-02T12:00:00Z", "150001", SampleFlags.outOfPlausibleRange),
        // a week: 700_000
        ("2024-03-01T00:00:00Z", "2024-03-08T00:00:00Z", "700000", SampleFlags()),
        ("2024-03-01T00:00:00Z", "2024-03-08T00:00:00Z", "700001", SampleFlags.outOfPlausibleRange),
        // zero is the plausible minimum
        ("2024-03-01T00:00:00Z", "2024-03-01T00:01:00Z", "0", SampleFlags()),
    ])
    func cumulativePlausibleRangeIsPerDay(start: String, end: String, value: String, flags: SampleFlags)
        throws
    {
        let raw = record(type: Self.steps, value: value, unit: "count", start: start, end: end)
        let s = try #require(sample(normalizer.normalize(raw), flags: flags))
        #expect(s.value == Double(value))
    }

    /// now = 2024-06-01T00:00:00Z; the default tolerance is 900 s.
    @Test(arguments: [
        ("2024-05-31T23:00:00Z", "2024-06-01T00:00:00Z", SampleFlags()),
        // now + 900 s: still within the tolerance
        ("2024-06-01T00:00:00Z", "2024-06-01T00:15:00Z", SampleFlags()),
        // now + 901 s
        ("2024-06-01T00:00:00Z", "2024-06-01T00:15:01Z", SampleFlags.futureDated),
        // now + 900.001 s
        ("2024-06-01T00:15:00Z", "2024-06-01T00:15:00.001Z", SampleFlags.futureDated),
        // it is the end that counts: starts in the past, ends an hour after now
        ("2024-05-31T23:00:00Z", "2024-06-01T01:00:00Z", SampleFlags.futureDated),
        // the offset is honoured: 01:10 at +01:00 = 00:10Z, inside the tolerance
        ("2024-06-01 01:00:00 +0100", "2024-06-01 01:10:00 +0100", SampleFlags()),
        // 2025
        ("2025-01-01T00:00:00Z", "2025-01-01T00:00:00Z", SampleFlags.futureDated),
    ])
    func futureDatedWithDefaultTolerance(start: String, end: String, flags: SampleFlags) throws {
        _ = try #require(sample(normalizer.normalize(record(start: start, end: end)), flags: flags))
    }

    @Test func futureToleranceIsInjected() throws {
        let strict = Normalizer(
            catalog: normalizer.catalog, now: RecordFixtures.now, futureToleranceSeconds: 0)
        #expect(strict.futureToleranceSeconds == 0)
        _ = try #require(sample(strict.normalize(record(start: "2024-06-01T00:00:00Z"))))
        _ = try #require(
            sample(strict.normalize(record(start: "2024-06-01T00:00:00.001Z")), flags: .futureDated))
        let lenient = Normalizer(
            catalog: normalizer.catalog, now: RecordFixtures.now, futureToleranceSeconds: 86_400)
        _ = try #require(sample(lenient.normalize(record(start: "2024-06-01T23:59:59Z"))))
        _ = try #require(
            sample(lenient.normalize(record(start: "2024-06-02T00:00:01Z")), flags: .futureDated))
        // an earlier "now" moves the line: 2024-03-01T07:00Z is after a now of 2024-01-01
        let january = Normalizer(catalog: normalizer.catalog, now: Instant(secondsSinceEpoch: 1_704_067_200))
        _ = try #require(sample(january.normalize(record()), flags: .futureDated))
    }

    /// sleep_analysis allows 57_600 s = 16 h per sample.
    @Test(arguments: [
        ("2024-03-01T22:00:00Z", "2024-03-02T14:00:00Z", SampleFlags()),  // 16 h exactly
        ("2024-03-01T22:00:00Z", "2024-03-02T14:00:01Z", SampleFlags.implausibleDuration),  // 16 h + 1 s
        ("2024-03-01T22:00:00Z", "2024-03-03T06:00:00Z", SampleFlags.implausibleDuration),  // 32 h
        ("2024-03-01T22:00:00Z", "2024-03-02T06:00:00Z", SampleFlags()),  // 8 h
    ])
    func implausibleDurationForSleep(start: String, end: String, flags: SampleFlags) throws {
        let raw = record(
            type: Self.sleep, value: "HKCategoryValueSleepAnalysisAsleepCore", unit: nil, start: start,
            end: end)
        let s = try #require(sample(normalizer.normalize(raw), flags: flags))
        #expect(s.category == "asleep_core")
    }

    @Test func flagsCombine() throws {
        // 30 h of sleep ending after now + tolerance
        let sleep = record(
            type: Self.sleep, value: "awake", unit: nil, start: "2024-06-01T00:00:00Z",
            end: "2024-06-02T06:00:00Z")
        let s = try #require(
            sample(normalizer.normalize(sleep), flags: [.futureDated, .implausibleDuration]))
        #expect(s.flags.names == ["future_dated", "implausible_duration"])
        let heart = record(value: "300", start: "2024-07-01T00:00:00Z")
        let h = try #require(
            sample(normalizer.normalize(heart), flags: [.outOfPlausibleRange, .futureDated]))
        #expect(h.flags.names == ["out_of_plausible_range", "future_dated"])
    }

    @Test func flagNames() {
        #expect(
            SampleFlags.named.map(\.name) == [
                "out_of_plausible_range", "future_dated", "implausible_duration", "summarized",
            ])
        #expect(SampleFlags([.outOfPlausibleRange, .futureDated, .implausibleDuration]).names.count == 3)
        #expect(SampleFlags().names.isEmpty)
        #expect(SampleFlags.implausibleDuration.names == ["implausible_duration"])
    }

    // MARK: - Categories

    @Test(arguments: [
        ("HKCategoryValueSleepAnalysisInBed", "in_bed"),
        ("HKCategoryValueSleepAnalysisAsleep", "asleep_unspecified"),
        ("HKCategoryValueSleepAnalysisAsleepUnspecified", "asleep_unspecified"),
        ("HKCategoryValueSleepAnalysisAsleepCore", "asleep_core"),
        ("HKCategoryValueSleepAnalysisAsleepDeep", "asleep_deep"),
        ("HKCategoryValueSleepAnalysisAsleepREM", "asleep_rem"),
        ("HKCategoryValueSleepAnalysisAwake", "awake"),
        // canonical values are accepted as written
        ("in_bed", "in_bed"), ("asleep_unspecified", "asleep_unspecified"), ("asleep_core", "asleep_core"),
        ("asleep_deep", "asleep_deep"), ("asleep_rem", "asleep_rem"), ("awake", "awake"),
    ])
    func sleepSpellingsBecomeCanonical(written: String, canonical: String) throws {
        let raw = record(
            type: Self.sleep, value: written, unit: nil, start: "2024-03-01T23:00:00Z",
            end: "2024-03-02T00:30:00Z")
        let s = try #require(sample(normalizer.normalize(raw)))
        #expect(s.metric == "sleep_analysis")
        #expect(s.category == canonical)
        #expect(s.value == nil)
        #expect(s.valueAsWritten == written)
    }

    @Test func optionalValueEvents() throws {
        let absent = try #require(
            sample(normalizer.normalize(record(type: Self.highHeartRate, value: nil, unit: nil))))
        #expect(absent.metric == "high_heart_rate_event")
        #expect(absent.category == nil)
        #expect(absent.valueAsWritten == nil)
        let given = try #require(
            sample(
                normalizer.normalize(
                    record(type: Self.highHeartRate, value: "HKCategoryValueNotApplicable", unit: nil))))
        #expect(given.category == "not_applicable")
        #expect(absent.id != given.id)
        // an optional value must still be a known one
        _ = try #require(
            quarantine(
                normalizer.normalize(
                    record(type: Self.highHeartRate, value: "HKCategoryValueSleepAnalysisAwake", unit: nil)),
                .unknownCategoryValue))
    }

    @Test func intervalsAndCorrelations() throws {
        let workout = try #require(
            sample(
                normalizer.normalize(
                    record(
                        type: "HKWorkoutTypeIdentifier", value: nil, unit: nil,
                        end: "2024-03-01 09:00:00 +0100"))))
        #expect(workout.metric == "workout")
        #expect(workout.value == nil && workout.category == nil)
        let panel = try #require(
            sample(normalizer.normalize(record(type: "blood_pressure", value: nil, unit: nil))))
        #expect(panel.metric == "blood_pressure")
        let session = try #require(
            sample(normalizer.normalize(record(type: "hydration_session", value: "1", unit: nil))))
        #expect(session.value == nil)
    }

    /// The bundled catalog maps every HealthKit sleep spelling (skipped with a recorded issue if it
    /// cannot be loaded; `CatalogTests` reports why).
    @Test(arguments: [
        ("HKCategoryValueSleepAnalysisInBed", "in_bed"),
        ("HKCategoryValueSleepAnalysisAsleep", "asleep_unspecified"),
        ("HKCategoryValueSleepAnalysisAsleepUnspecified", "asleep_unspecified"),
        ("HKCategoryValueSleepAnalysisAsleepCore", "asleep_core"),
        ("HKCategoryValueSleepAnalysisAsleepDeep", "asleep_deep"),
        ("HKCategoryValueSleepAnalysisAsleepREM", "asleep_rem"),
        ("HKCategoryValueSleepAnalysisAwake", "awake"),
        ("asleep_rem", "asleep_rem"),
    ])
    func bundledCatalogSleepSpellings(written: String, canonical: String) throws {
        let bundled = Normalizer(catalog: try MetricCatalog.bundled(), now: RecordFixtures.now)
        let raw = record(
            type: Self.sleep, value: written, unit: nil, start: "2024-03-01T23:00:00Z",
            end: "2024-03-02T00:30:00Z")
        let s = try #require(sample(bundled.normalize(raw)))
        #expect(s.category == canonical)
    }
}
