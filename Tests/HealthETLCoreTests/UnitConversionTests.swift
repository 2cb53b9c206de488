import HealthETLTestSupport
import Testing

@testable import HealthETLCore

/// Every unit spelling of every unit set in the bundled catalog, converted through the normalizer
/// and compared with a value worked out by hand from the unit's definition.
struct UnitConversionTests {
    struct Conversion: Sendable, CustomStringConvertible {
        let set: String
        let spelling: String
        /// The value as a source writes it.
        let input: String
        /// The value in the set's canonical unit, computed by hand.
        let expected: Double
        var description: String { "\(input) \(spelling) [\(set)]" }
    }

    /// Keyed by set and spelling. Definitions used:
    /// thermochemical calorie 1 cal = 4.184 J; international mile 1 mi = 1609.344 m; 1 in = 2.54 cm;
    /// 1 ft = 12 in = 0.3048 m; 1 yd = 3 ft = 0.9144 m; 1 lb = 0.45359237 kg; 1 oz = 1/16 lb;
    /// 1 st = 14 lb; degF = degC × 9/5 + 32; K = degC + 273.15; glucose molar mass 180.15588 g/mol
    /// (the number HealthKit writes in `mmol<180.1558800000541>/L`); conventional millimetre of
    /// mercury 1 mmHg = 13.5951 g/cm³ × 9.80665 m/s² × 1 mm = 133.322387415 Pa; US fluid ounce
    /// 29.5735295625 mL, US cup = 8 US fl oz; imperial fluid ounce 28.4130625 mL.
    static let table: [Conversion] = [
        // energy → kcal
        Conversion(set: "energy", spelling: "kcal", input: "500", expected: 500),
        Conversion(set: "energy", spelling: "Cal", input: "500", expected: 500),  // food Calorie = kcal
        Conversion(set: "energy", spelling: "kJ", input: "1", expected: 0.2390057361376673),  // 1 / 4.184
        // 1000 / 4.184
        Conversion(set: "energy", spelling: "kJ", input: "1000", expected: 239.0057361376673),
        Conversion(set: "energy", spelling: "cal", input: "500000", expected: 500),  // 500_000 / 1000
        // 1e6 / 4184
        Conversion(set: "energy", spelling: "J", input: "1000000", expected: 239.0057361376673),

        // distance → m
        Conversion(set: "distance", spelling: "m", input: "1234.5", expected: 1234.5),
        Conversion(set: "distance", spelling: "km", input: "1.5", expected: 1500),  // 1.5 × 1000
        Conversion(set: "distance", spelling: "cm", input: "250", expected: 2.5),  // 250 / 100
        Conversion(set: "distance", spelling: "mm", input: "1500", expected: 1.5),  // 1500 / 1000
        Conversion(set: "distance", spelling: "mi", input: "1", expected: 1609.344),  // exact by definition
        Conversion(set: "distance", spelling: "mi", input: "26.2", expected: 42_164.8128),  // 26.2 × 1609.344
        Conversion(set: "distance", spelling: "ft", input: "10", expected: 3.048),  // 10 × 0.3048
        Conversion(set: "distance", spelling: "yd", input: "10", expected: 9.144),  // 10 × 0.9144
        Conversion(set: "distance", spelling: "in", input: "100", expected: 2.54),  // 100 × 0.0254

        // length → cm
        Conversion(set: "length", spelling: "cm", input: "180", expected: 180),
        Conversion(set: "length", spelling: "m", input: "1.8", expected: 180),  // 1.8 × 100
        Conversion(set: "length", spelling: "mm", input: "1800", expected: 180),  // 1800 / 10
        Conversion(set: "length", spelling: "in", input: "70", expected: 177.8),  // 70 × 2.54
        Conversion(set: "length", spelling: "ft", input: "6", expected: 182.88),  // 6 × 12 × 2.54

        // mass → kg
        Conversion(set: "mass", spelling: "kg", input: "70", expected: 70),
        Conversion(set: "mass", spelling: "g", input: "70000", expected: 70),  // 70_000 / 1000
        Conversion(set: "mass", spelling: "lb", input: "10", expected: 4.5359237),  // 10 × 0.45359237
        Conversion(set: "mass", spelling: "oz", input: "16", expected: 0.45359237),  // 16 oz = 1 lb
        Conversion(set: "mass", spelling: "st", input: "11", expected: 69.85322498),  // 11 × 14 × 0.45359237

        // temperature → Cel
        Conversion(set: "temperature", spelling: "Cel", input: "37", expected: 37),
        Conversion(set: "temperature", spelling: "degC", input: "37", expected: 37),
        Conversion(set: "temperature", spelling: "degF", input: "98.6", expected: 37),  // (98.6 − 32) × 5/9
        Conversion(set: "temperature", spelling: "degF", input: "212", expected: 100),  // (212 − 32) × 5/9
        Conversion(set: "temperature", spelling: "K", input: "310.15", expected: 37),  // 310.15 − 273.15

        // glucose → mg/dL: 1 mmol/L × 180.15588 g/mol = 180.15588 mg/L = 18.015588 mg/dL
        Conversion(set: "glucose", spelling: "mg/dL", input: "100", expected: 100),
        // 5.5 × 18.01558800000541
        Conversion(
            set: "glucose", spelling: "mmol<180.1558800000541>/L", input: "5.5", expected: 99.08573400002976),
        // the same glucose without HealthKit's molar-mass annotation: 5.5 × 18.015588
        Conversion(set: "glucose", spelling: "mmol/L", input: "5.5", expected: 99.085734),

        // percent → %: HealthKit writes "%" for a 0–1 fraction
        Conversion(set: "percent", spelling: "%", input: "0.97", expected: 97),  // 0.97 × 100
        Conversion(set: "percent", spelling: "pct", input: "97", expected: 97),

        // rate → /min
        Conversion(set: "rate", spelling: "/min", input: "72", expected: 72),
        Conversion(set: "rate", spelling: "count/min", input: "72", expected: 72),
        Conversion(set: "rate", spelling: "beats/min", input: "72", expected: 72),
        Conversion(set: "rate", spelling: "bpm", input: "72", expected: 72),
        Conversion(set: "rate", spelling: "count/s", input: "1.2", expected: 72),  // 1.2 × 60
        Conversion(set: "rate", spelling: "/s", input: "1.2", expected: 72),  // 1.2 × 60

        // duration → min
        Conversion(set: "duration", spelling: "min", input: "30", expected: 30),
        Conversion(set: "duration", spelling: "s", input: "1800", expected: 30),  // 1800 / 60
        Conversion(set: "duration", spelling: "ms", input: "1800000", expected: 30),  // 1_800_000 / 60_000
        Conversion(set: "duration", spelling: "hr", input: "1.5", expected: 90),  // 1.5 × 60
        Conversion(set: "duration", spelling: "h", input: "1.5", expected: 90),  // 1.5 × 60

        // milliseconds → ms
        Conversion(set: "milliseconds", spelling: "ms", input: "45", expected: 45),
        Conversion(set: "milliseconds", spelling: "s", input: "0.045", expected: 45),  // 0.045 × 1000

        // vo2max → mL/min/kg: every spelling is the same unit
        Conversion(set: "vo2max", spelling: "mL/min/kg", input: "45.5", expected: 45.5),
        Conversion(set: "vo2max", spelling: "mL/min·kg", input: "45.5", expected: 45.5),
        Conversion(set: "vo2max", spelling: "mL/kg·min", input: "45.5", expected: 45.5),
        Conversion(set: "vo2max", spelling: "mL/min-kg", input: "45.5", expected: 45.5),
        Conversion(set: "vo2max", spelling: "mL/kg-min", input: "45.5", expected: 45.5),
        Conversion(set: "vo2max", spelling: "mL/(kg.min)", input: "45.5", expected: 45.5),
        Conversion(set: "vo2max", spelling: "ml/kg/min", input: "45.5", expected: 45.5),

        // pressure → mm[Hg]
        Conversion(set: "pressure", spelling: "mm[Hg]", input: "120", expected: 120),
        Conversion(set: "pressure", spelling: "mmHg", input: "120", expected: 120),
        // 16 kPa = 16_000 Pa / 133.322387415 Pa
        Conversion(set: "pressure", spelling: "kPa", input: "16", expected: 120.00985213530501),

        // counts
        Conversion(set: "steps", spelling: "{steps}", input: "1000", expected: 1000),
        Conversion(set: "steps", spelling: "count", input: "1000", expected: 1000),
        Conversion(set: "flights", spelling: "{flight}", input: "5", expected: 5),
        Conversion(set: "flights", spelling: "count", input: "5", expected: 5),
        Conversion(set: "pushes", spelling: "{push}", input: "300", expected: 300),
        Conversion(set: "pushes", spelling: "count", input: "300", expected: 300),
        Conversion(set: "strokes", spelling: "{stroke}", input: "40", expected: 40),
        Conversion(set: "strokes", spelling: "count", input: "40", expected: 40),

        // volume → L
        Conversion(set: "volume", spelling: "L", input: "1.5", expected: 1.5),
        Conversion(set: "volume", spelling: "mL", input: "500", expected: 0.5),  // 500 / 1000
        // 8 × 29.5735295625 mL
        Conversion(set: "volume", spelling: "fl_oz_us", input: "8", expected: 0.2365882365),
        Conversion(set: "volume", spelling: "cup_us", input: "1", expected: 0.2365882365),  // 8 US fl oz
        // 10 × 28.4130625 mL
        Conversion(set: "volume", spelling: "fl_oz_imp", input: "10", expected: 0.284130625),

        // sound_level → dB
        Conversion(set: "sound_level", spelling: "dB", input: "70", expected: 70),
        Conversion(set: "sound_level", spelling: "dBASPL", input: "70", expected: 70),
        Conversion(set: "sound_level", spelling: "dB[SPL]", input: "70", expected: 70),

        // speed → m/s
        Conversion(set: "speed", spelling: "m/s", input: "1.4", expected: 1.4),
        Conversion(set: "speed", spelling: "km/hr", input: "5.04", expected: 1.4),  // 5040 m / 3600 s
        Conversion(set: "speed", spelling: "km/h", input: "36", expected: 10),  // 36_000 m / 3600 s
        Conversion(set: "speed", spelling: "mi/hr", input: "3", expected: 1.34112),  // 3 × 1609.344 / 3600
        Conversion(set: "speed", spelling: "mph", input: "3", expected: 1.34112),  // 3 × 1609.344 / 3600
        Conversion(set: "speed", spelling: "ft/s", input: "5", expected: 1.524),  // 5 × 0.3048

        // bmi → kg/m2 (HealthKit writes "count")
        Conversion(set: "bmi", spelling: "kg/m2", input: "22.5", expected: 22.5),
        Conversion(set: "bmi", spelling: "kg/m^2", input: "22.5", expected: 22.5),
        Conversion(set: "bmi", spelling: "count", input: "22.5", expected: 22.5),

        // physical_effort → kcal/(kg.h): every spelling is the same unit
        Conversion(set: "physical_effort", spelling: "kcal/(kg.h)", input: "3.5", expected: 3.5),
        Conversion(set: "physical_effort", spelling: "kcal/hr·kg", input: "3.5", expected: 3.5),
        Conversion(set: "physical_effort", spelling: "kcal/hr-kg", input: "3.5", expected: 3.5),
        Conversion(set: "physical_effort", spelling: "kcal/kg·hr", input: "3.5", expected: 3.5),
        Conversion(set: "physical_effort", spelling: "kcal/(kg·hr)", input: "3.5", expected: 3.5),

        // power → W
        Conversion(set: "power", spelling: "W", input: "250", expected: 250),
        Conversion(set: "power", spelling: "kW", input: "0.25", expected: 250),  // 0.25 × 1000

        // flow → L/min
        Conversion(set: "flow", spelling: "L/min", input: "450", expected: 450),
        Conversion(set: "flow", spelling: "mL/min", input: "450000", expected: 450),  // 450_000 / 1000

        // The rest of the catalog's sets.
        // beverages → {drinks}; breathing disturbances → {disturbances}/h; falls, inhaler uses, NikeFuel, UV index, scores: counts
        Conversion(set: "beverages", spelling: "{drinks}", input: "2", expected: 2),
        Conversion(set: "beverages", spelling: "count", input: "2", expected: 2),
        Conversion(set: "breathing_disturbances", spelling: "{disturbances}/h", input: "4.5", expected: 4.5),
        Conversion(set: "breathing_disturbances", spelling: "count", input: "4.5", expected: 4.5),
        Conversion(set: "breathing_disturbances", spelling: "count/hr", input: "4.5", expected: 4.5),
        Conversion(set: "falls", spelling: "{falls}", input: "1", expected: 1),
        Conversion(set: "falls", spelling: "count", input: "1", expected: 1),
        Conversion(set: "falls", spelling: "falls", input: "1", expected: 1),
        Conversion(set: "inhaler_uses", spelling: "{uses}", input: "3", expected: 3),
        Conversion(set: "inhaler_uses", spelling: "count", input: "3", expected: 3),
        Conversion(set: "nikefuel", spelling: "{NikeFuel}", input: "120", expected: 120),
        Conversion(set: "nikefuel", spelling: "count", input: "120", expected: 120),
        Conversion(set: "uv_index", spelling: "{UV_index}", input: "6", expected: 6),
        Conversion(set: "uv_index", spelling: "count", input: "6", expected: 6),
        Conversion(set: "effort_score", spelling: "{score}", input: "7", expected: 7),
        Conversion(set: "effort_score", spelling: "appleEffortScore", input: "7", expected: 7),
        Conversion(set: "effort_score", spelling: "count", input: "7", expected: 7),
        Conversion(set: "valence", spelling: "{score}", input: "0.4", expected: 0.4),
        // conductance → uS: 1 mS = 1000 uS, 1 S = 1,000,000 uS
        Conversion(set: "conductance", spelling: "uS", input: "2.5", expected: 2.5),
        Conversion(set: "conductance", spelling: "µS", input: "2.5", expected: 2.5),
        Conversion(set: "conductance", spelling: "μS", input: "2.5", expected: 2.5),
        Conversion(set: "conductance", spelling: "mcS", input: "2.5", expected: 2.5),
        Conversion(set: "conductance", spelling: "mS", input: "0.0025", expected: 2.5),
        Conversion(set: "conductance", spelling: "S", input: "0.0000025", expected: 2.5),
        // dietary_mass → g: mg ÷ 1000, mcg ÷ 1,000,000, oz 28.349523125 g, lb 453.59237 g
        Conversion(set: "dietary_mass", spelling: "g", input: "50", expected: 50),
        Conversion(set: "dietary_mass", spelling: "mg", input: "2300", expected: 2.3),
        Conversion(set: "dietary_mass", spelling: "mcg", input: "90", expected: 0.00009),
        Conversion(set: "dietary_mass", spelling: "µg", input: "90", expected: 0.00009),
        Conversion(set: "dietary_mass", spelling: "μg", input: "90", expected: 0.00009),
        Conversion(set: "dietary_mass", spelling: "ug", input: "90", expected: 0.00009),
        Conversion(set: "dietary_mass", spelling: "kg", input: "0.25", expected: 250),
        Conversion(set: "dietary_mass", spelling: "oz", input: "2", expected: 56.69904625),
        Conversion(set: "dietary_mass", spelling: "lb", input: "0.5", expected: 226.796185),
        // more spellings of existing sets
        Conversion(set: "distance", spelling: "mile", input: "2", expected: 3218.688),
        Conversion(set: "duration", spelling: "d", input: "1", expected: 1440),
        Conversion(set: "duration", spelling: "hours", input: "1.5", expected: 90),
        Conversion(set: "duration", spelling: "sec", input: "90", expected: 1.5),
        Conversion(set: "energy", spelling: "kilocalories", input: "250", expected: 250),
        Conversion(set: "flow", spelling: "L/s", input: "7.5", expected: 450),
        Conversion(set: "glucose", spelling: "mmol<180.15588000005408>/L", input: "5.5", expected: 99.08573400002976),
        Conversion(set: "glucose", spelling: "mmol<180.15588000005408>/l", input: "5.5", expected: 99.08573400002976),
        Conversion(set: "insulin", spelling: "[IU]", input: "4", expected: 4),
        Conversion(set: "insulin", spelling: "IU", input: "4", expected: 4),
        Conversion(set: "length", spelling: "yd", input: "2", expected: 182.88),
        Conversion(set: "physical_effort", spelling: "MET", input: "3.5", expected: 3.5),
        Conversion(set: "power", spelling: "watts", input: "250", expected: 250),
        Conversion(set: "power", spelling: "kcal/d", input: "1800", expected: 87.16666666666667),
        Conversion(set: "power", spelling: "kcal/day", input: "1800", expected: 87.16666666666667),
        Conversion(set: "rate", spelling: "rpm", input: "85", expected: 85),
        Conversion(set: "rate", spelling: "breaths/min", input: "14", expected: 14),
        Conversion(set: "rate", spelling: "steps/min", input: "110", expected: 110),
        Conversion(set: "rate", spelling: "count/hr", input: "120", expected: 2),
        Conversion(set: "speed", spelling: "ft/min", input: "300", expected: 1.524),
        Conversion(set: "speed", spelling: "m/min", input: "90", expected: 1.5),
        Conversion(set: "steps", spelling: "steps", input: "5000", expected: 5000),
        Conversion(set: "temperature", spelling: "°C", input: "36.6", expected: 36.6),
        Conversion(set: "temperature", spelling: "ºC", input: "36.6", expected: 36.6),
        Conversion(set: "temperature", spelling: "°F", input: "98.6", expected: 37),
        Conversion(set: "temperature", spelling: "ºF", input: "98.6", expected: 37),
        // temperature_delta → K: a difference, so no offset; 1 degF of difference = 5/9 K
        Conversion(set: "temperature_delta", spelling: "K", input: "0.4", expected: 0.4),
        Conversion(set: "temperature_delta", spelling: "Cel", input: "0.4", expected: 0.4),
        Conversion(set: "temperature_delta", spelling: "degC", input: "0.4", expected: 0.4),
        Conversion(set: "temperature_delta", spelling: "°C", input: "0.4", expected: 0.4),
        Conversion(set: "temperature_delta", spelling: "degF", input: "0.9", expected: 0.5),
        Conversion(set: "temperature_delta", spelling: "°F", input: "0.9", expected: 0.5),
        Conversion(set: "vo2max", spelling: "mL/(kg·min)", input: "42", expected: 42),
        Conversion(set: "vo2max", spelling: "ml/(kg·min)", input: "42", expected: 42),
        Conversion(set: "vo2max", spelling: "ml/(kg.min)", input: "42", expected: 42),
        Conversion(set: "volume", spelling: "ml", input: "250", expected: 0.25),
        Conversion(set: "volume", spelling: "cup_imp", input: "1", expected: 0.284130625),
        Conversion(set: "volume", spelling: "pt_us", input: "2", expected: 0.946352946),
        Conversion(set: "volume", spelling: "pt_imp", input: "1", expected: 0.56826125),
        Conversion(set: "volume", spelling: "mcL", input: "500", expected: 0.0005),
    ]

    static func isClose(_ actual: Double, _ expected: Double) -> Bool {
        abs(actual - expected) <= 1e-9 * max(abs(expected), 1e-300)
    }

    @Test(arguments: table)
    func spellingConvertsToTheCanonicalUnit(_ c: Conversion) throws {
        let catalog = try MetricCatalog.bundled()
        let set = try #require(
            catalog.document.unitSets[c.set], "no unit set \(c.set) in the bundled catalog")
        #expect(set.units[c.spelling] != nil, "\(c.set) has no spelling \(c.spelling)")
        // any metric of the set whose hard limits hold the expected value will do
        let metric = try #require(
            catalog.metrics.first { $0.unitSet == c.set && ($0.hard?.contains(c.expected) ?? true) },
            "no metric of unit set \(c.set) accepts \(c.expected)")
        let normalizer = Normalizer(catalog: catalog, now: RecordFixtures.now)
        let record = RecordFixtures.record(type: metric.id, value: c.input, unit: c.spelling)
        let value: Double?
        switch normalizer.normalize(record) {
        case .accepted(let sample), .flagged(let sample):
            #expect(sample.metric == metric.id)
            #expect(sample.unitAsWritten == c.spelling)
            value = sample.value
        case .quarantined(let q):
            Issue.record("\(metric.id): quarantined \(q.reason.rawValue): \(q.detail)")
            return
        }
        let actual = try #require(value)
        #expect(
            Self.isClose(actual, c.expected),
            "\(c.input) \(c.spelling) → \(actual) \(set.canonical), expected \(c.expected) (relative error \(abs(actual - c.expected) / abs(c.expected)))"
        )
    }

    /// Fails when the catalog gains a unit set or spelling the table does not check, or loses one it does.
    @Test func tableCoversEverySpellingOfTheBundledCatalog() throws {
        let catalog = try MetricCatalog.bundled()
        var inCatalog = Set<String>()
        for (name, set) in catalog.document.unitSets {
            for spelling in set.units.keys { inCatalog.insert("\(name) / \(spelling)") }
        }
        let inTable = Set(Self.table.map { "\($0.set) / \($0.spelling)" })
        let unchecked = inCatalog.subtracting(inTable).sorted()
        let stale = inTable.subtracting(inCatalog).sorted()
        #expect(unchecked.isEmpty, "spellings without a hand-computed conversion: \(unchecked)")
        #expect(stale.isEmpty, "table entries the catalog no longer has: \(stale)")
        // 89 spellings in 23 sets when this table was written; the catalog only grows
        #expect(inCatalog.count >= 89)
    }

    /// Every unit set is used by some quantity metric, so the conversion test can reach it.
    @Test func everyUnitSetIsUsedByAMetric() throws {
        let catalog = try MetricCatalog.bundled()
        let used = Set(catalog.metrics.compactMap(\.unitSet))
        for name in catalog.document.unitSets.keys.sorted() {
            #expect(used.contains(name), "unit set \(name) is not used by any metric")
        }
    }

    @Test func affineConversionArithmetic() {
        // canonical = value × scale + offset
        let fahrenheit = UnitConversion(scale: 5.0 / 9.0, offset: -160.0 / 9.0)
        #expect(Self.isClose(fahrenheit.toCanonical(98.6), 37))  // (98.6 − 32) × 5/9
        #expect(Self.isClose(fahrenheit.toCanonical(-40), -40))  // −40 °F = −40 °C
        #expect(UnitConversion(scale: 1609.344).toCanonical(1) == 1609.344)
        #expect(UnitConversion.identity.toCanonical(42.5) == 42.5)
    }

    /// HealthKit's "%" is a 0–1 fraction, but some files write whole percents under it.
    @Test(arguments: [("0.97", 97.0), ("1", 100.0), ("0.5", 50.0), ("98", 98.0), ("99.5", 99.5)])
    func percentSpellingReadsFractionsAndWholePercents(input: String, expected: Double) throws {
        let catalog = try MetricCatalog.bundled()
        let normalizer = Normalizer(catalog: catalog, now: Instant(secondsSinceEpoch: 2_000_000_000))
        let record = RawRecord(
            type: "HKQuantityTypeIdentifierOxygenSaturation", sourceName: "Watch", unit: "%", value: .text(input),
            start: .text("2024-01-10 10:00:00 +0100"), end: .text("2024-01-10 10:00:00 +0100"))
        guard case .accepted(let sample) = normalizer.normalize(record) else {
            Issue.record("\(input) % was not accepted")
            return
        }
        #expect(sample.value == expected)
    }
}
