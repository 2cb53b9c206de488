import HealthETLCore

/// Writes a Health Auto Export JSON file of one simulated phone: heart rate, steps, energy,
/// walking heart rate (named as the format's app version names it), blood pressure, blood
/// glucose with meal times and sleep for every day; a run with heart rate and route every other
/// day; and, in format 2, state of mind, symptoms, an ECG, a heart-rate notification and a
/// medication. Deterministic for a seed and a clock.
public struct HealthAutoExportFileGenerator {
    public let options: HealthAutoExportFileOptions
    private let clock: Clock

    public init(options: HealthAutoExportFileOptions, clock: Clock = .system) {
        self.options = options
        self.clock = clock
    }

    public func run() throws -> HealthAutoExportFileSummary {
        let out = try HAEJSONText(
            path: options.path, twelveHour: options.twelveHour, utcOffsetSeconds: options.utcOffsetSeconds)
        var writer = Writer(options: options, out: out)
        let today = (clock.now().millisecondsSinceEpoch / 1000 + Int64(options.utcOffsetSeconds)).floorDivided(
            by: 86_400
        )
        .quotient
        writer.write(firstDay: today - Int64(options.days))
        try out.finish()
        writer.summary.bytes = out.bytes
        return writer.summary
    }

    /// One file's writing: the sections in order, each metric's points day by day.
    private struct Writer {
        let options: HealthAutoExportFileOptions
        let out: HAEJSONText
        var summary = HealthAutoExportFileSummary()
        var random: SplitMix64
        /// Metric objects written so far.
        private var metrics = 0

        init(options: HealthAutoExportFileOptions, out: HAEJSONText) {
            self.options = options
            self.out = out
            random = SplitMix64(state: SplitMix64.mix(options.seed ^ 0x4841_4546))
        }

        private var days: Range<Int64> = 0..<0

        mutating func write(firstDay: Int64) {
            days = firstDay..<(firstDay + Int64(options.days))
            out.raw(options.envelope ? "{\"data\":{" : "{")
            out.raw("\"metrics\":[")
            heartRate()
            out.raw(",")
            hourly("step_count", units: "count", hours: 7..<23, perHour: options.summarized ? 1 : 6) {
                $0.draw(40...900)
            }
            out.raw(",")
            hourly("active_energy", units: "kcal", hours: 0..<24, perHour: 1) { $0.draw(5...120) }
            out.raw(",")
            daily(
                options.format == 1 ? "walking_heart_rate" : "walking_heart_rate_average", units: "count/min", hour: 12
            ) {
                "\"qty\":\($0.draw(85...115))"
            }
            out.raw(",")
            daily("blood_pressure", units: "mmHg", hour: 7, reading: true) {
                "\"systolic\":\($0.draw(108...135)),\"diastolic\":\($0.draw(68...88))"
            }
            out.raw(",")
            daily("blood_glucose", units: "mg/dL", hour: 8, reading: true) {
                "\"qty\":\($0.draw(80...140)),\"mealTime\":\"Before Meal\""
            }
            out.raw(",")
            sleep()
            out.raw("],\"workouts\":[")
            workouts()
            out.raw("]")
            if options.format >= 2 { sections() }
            out.raw(options.envelope ? "}}" : "}")
        }

        // MARK: - Metrics

        /// A metric object, its members in the order the options give: HAE's own files hold every
        /// order of `name`, `units` and `data`.
        private mutating func metric(_ name: String, units: String?, _ body: (inout Writer) -> Void) {
            let order = options.mixedMemberOrder ? Self.memberOrders[metrics % Self.memberOrders.count] : [0, 1, 2]
            metrics += 1
            out.raw("{")
            var separator = ""
            for member in order {
                switch member {
                case 0: out.raw(separator + "\"name\":\"\(name)\"")
                case 1:
                    guard let units else { continue }
                    out.raw(separator + "\"units\":\"\(units)\"")
                default:
                    out.raw(separator + "\"data\":[")
                    body(&self)
                    out.raw("]")
                }
                separator = ","
            }
            out.raw("}")
        }

        /// Every order of a metric's name (0), units (1) and data (2).
        private static let memberOrders = [[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 2, 1], [2, 1, 0], [1, 0, 2]]

        /// `separator` before every point but the first of a metric.
        private mutating func point(_ name: String, first: inout Bool, records: Int = 1, _ text: String) {
            out.raw(first ? "{" : ",{")
            out.raw(text)
            out.raw("}")
            first = false
            summary.points[name, default: 0] += 1
            summary.records += records
        }

        private mutating func heartRate() {
            metric("heart_rate", units: "count/min") { writer in
                var first = true
                let step = Int64(writer.options.heartRateInterval)
                for day in writer.days {
                    var second: Int64 = 0
                    while second < 86_400 {
                        let average = writer.draw(55...125)
                        let low = writer.options.summarized ? average - writer.draw(1...8) : average
                        let high = writer.options.summarized ? average + writer.draw(1...12) : average
                        let date = writer.out.date(day * 86_400 + second)
                        writer.point(
                            "heart_rate", first: &first,
                            "\"Min\":\(low),\"Avg\":\(average),\"Max\":\(high),\"date\":\(date),\"source\":\"Apple Watch\""
                        )
                        second += step
                    }
                }
            }
        }

        private mutating func hourly(
            _ name: String, units: String, hours: Range<Int64>, perHour: Int64, value: (inout Writer) -> Int
        ) {
            metric(name, units: units) { writer in
                var first = true
                for day in writer.days {
                    for hour in hours {
                        for slice in 0..<perHour {
                            let start = day * 86_400 + hour * 3600 + slice * 3600 / perHour
                            let qty = value(&writer)
                            if writer.options.summarized {
                                writer.point(
                                    name, first: &first,
                                    "\"qty\":\(qty),\"date\":\(writer.out.date(start)),\"source\":\"Apple Watch|iPhone\""
                                )
                            } else {
                                let end = start + 3600 / perHour
                                writer.point(
                                    name, first: &first,
                                    "\"qty\":\(qty),\"date\":\(writer.out.date(start)),\"start\":\(writer.out.date(start)),"
                                        + "\"end\":\(writer.out.date(end)),\"source\":\"iPhone\"")
                            }
                        }
                    }
                }
            }
        }

        /// One point a day: a summary at midnight, or a reading at `hour`.
        private mutating func daily(
            _ name: String, units: String, hour: Int64, reading: Bool = false, fields: (inout Writer) -> String
        ) {
            metric(name, units: units) { writer in
                var first = true
                for day in writer.days {
                    let at = day * 86_400 + (reading || !writer.options.summarized ? hour * 3600 + 1800 : 0)
                    let text = fields(&writer)
                    let records = name == "blood_pressure" ? 2 : 1
                    writer.point(
                        name, first: &first, records: records,
                        "\(text),\"date\":\(writer.out.date(at)),\"source\":\"iPhone\"")
                }
            }
        }

        private mutating func sleep() {
            metric("sleep_analysis", units: nil) { writer in
                var first = true
                for day in writer.days {
                    let inBed = day * 86_400 - 3600  // 23:00 the evening before
                    let asleep = inBed + Int64(writer.draw(5...25)) * 60
                    let wake = day * 86_400 + 6 * 3600 + Int64(writer.draw(0...50)) * 60
                    let out = day * 86_400 + 7 * 3600
                    if writer.options.summarized {
                        let hours = Double(wake - asleep) / 3600
                        let spans =
                            "\"sleepStart\":\(writer.out.date(asleep)),\"sleepEnd\":\(writer.out.date(wake)),"
                            + "\"inBedStart\":\(writer.out.date(inBed)),\"inBedEnd\":\(writer.out.date(out))"
                        let totals =
                            writer.options.format == 1
                            ? "\"asleep\":\(hours),\"inBed\":8,\"sleepSource\":\"Apple Watch\",\"inBedSource\":\"iPhone\""
                            : "\"totalSleep\":\(hours),\"asleep\":0,\"core\":\(hours * 0.55),\"deep\":\(hours * 0.2),"
                                + "\"rem\":\(hours * 0.25),\"awake\":0.2,\"inBed\":8,\"source\":\"Apple Watch\""
                        writer.point(
                            "sleep_analysis", first: &first, records: 2,
                            "\"date\":\(writer.out.date(day * 86_400)),\(totals),\(spans)")
                    } else {
                        var at = asleep
                        let stages = ["Core", "Deep", "Core", "REM", "Awake", "Core", "REM"]
                        var index = 0
                        while at < wake {
                            let end = min(wake, at + Int64(writer.draw(20...70)) * 60)
                            writer.point(
                                "sleep_analysis", first: &first,
                                "\"startDate\":\(writer.out.date(at)),\"endDate\":\(writer.out.date(end)),"
                                    + "\"qty\":\(Double(end - at) / 3600),\"value\":\"\(stages[index % stages.count])\","
                                    + "\"source\":\"Apple Watch\"")
                            at = end
                            index += 1
                        }
                    }
                }
            }
        }

        // MARK: - Workouts and sections

        private mutating func workouts() {
            var first = true
            for day in days where day % 2 == 0 {
                let start = day * 86_400 + 18 * 3600
                let end = start + 1800
                out.raw(first ? "{" : ",{")
                first = false
                summary.workouts += 1
                summary.records += 1
                let energy = draw(250...420)
                if options.format == 1 {
                    out.raw(
                        "\"name\":\"Outdoor Run\",\"start\":\(out.date(start)),\"end\":\(out.date(end)),\"duration\":1800,"
                            + "\"activeEnergy\":{\"qty\":\(energy),\"units\":\"kcal\"},\"distance\":{\"qty\":5.1,\"units\":\"km\"},"
                            + "\"avgHeartRate\":{\"qty\":142,\"units\":\"bpm\"},\"maxHeartRate\":{\"qty\":171,\"units\":\"bpm\"},"
                    )
                } else {
                    out.raw(
                        "\"id\":\"\(uuid())\",\"name\":\"Outdoor Run\",\"start\":\(out.date(start)),\"end\":\(out.date(end)),"
                            + "\"duration\":1800,\"activeEnergyBurned\":{\"qty\":\(energy),\"units\":\"kcal\"},"
                            + "\"distance\":{\"qty\":5.1,\"units\":\"km\"},\"elevationUp\":{\"qty\":42,\"units\":\"m\"},"
                            + "\"heartRate\":{\"min\":{\"qty\":98,\"units\":\"bpm\"},\"avg\":{\"qty\":142,\"units\":\"bpm\"},"
                            + "\"max\":{\"qty\":171,\"units\":\"bpm\"}},")
                }
                out.raw("\"heartRateData\":[")
                for minute in Int64(0)..<30 {
                    let rate = draw(120...170)
                    let date = out.date(start + minute * 60)
                    out.raw(minute == 0 ? "{" : ",{")
                    out.raw(
                        options.format == 1
                            ? "\"date\":\(date),\"qty\":\(rate),\"units\":\"count/min\""
                            : "\"date\":\(date),\"Min\":\(rate - 4),\"Avg\":\(rate),\"Max\":\(rate + 5),\"units\":\"count/min\",\"source\":\"Apple Watch\""
                    )
                    out.raw("}")
                    summary.workoutHeartRatePoints += 1
                    summary.records += 1
                }
                out.raw("],\"route\":[")
                for minute in Int64(0)..<30 {
                    let north = 37.77 + Double(minute) * 0.0009
                    out.raw(minute == 0 ? "{" : ",{")
                    out.raw(
                        options.format == 1
                            ? "\"lat\":\(north),\"lon\":-122.42,\"altitude\":12,\"timestamp\":\(out.date(start + minute * 60))"
                            : "\"latitude\":\(north),\"longitude\":-122.42,\"altitude\":12,\"speed\":2.8,"
                                + "\"horizontalAccuracy\":4,\"timestamp\":\(out.date(start + minute * 60))")
                    out.raw("}")
                }
                out.raw("]}")
            }
        }

        private mutating func sections() {
            var text = ",\"stateOfMind\":["
            for (index, day) in days.enumerated() {
                let at = out.date(day * 86_400 + 21 * 3600)
                let valence = Double(draw(-80...90)) / 100
                text +=
                    (index == 0 ? "" : ",")
                    + "{\"id\":\"\(uuid())\",\"start\":\(at),\"end\":\(at),\"kind\":\"dailyMood\",\"valence\":\(valence),"
                    + "\"valenceClassification\":\"pleasant\",\"labels\":[\"Calm\"],\"associations\":[\"Family\"]}"
                section("stateOfMind")
            }
            text += "],\"symptoms\":["
            for (index, day) in days.enumerated() where index % 3 == 0 {
                text +=
                    (index == 0 ? "" : ",")
                    + "{\"start\":\(out.date(day * 86_400 + 10 * 3600)),\"end\":\(out.date(day * 86_400 + 12 * 3600)),"
                    + "\"name\":\"Headache\",\"severity\":\"Mild\",\"source\":\"Health\"}"
                section("symptoms")
            }
            let day = days.lowerBound
            text +=
                "],\"ecg\":[{\"start\":\(out.date(day * 86_400 + 9 * 3600)),\"end\":\(out.date(day * 86_400 + 9 * 3600 + 30)),"
                + "\"classification\":\"Sinus Rhythm\",\"averageHeartRate\":64,\"samplingFrequency\":512,"
                + "\"numberOfVoltageMeasurements\":4,\"voltageMeasurements\":[{\"date\":\(out.date(day * 86_400 + 9 * 3600)),"
                + "\"voltage\":0.00012,\"units\":\"V\"}],\"source\":\"Apple Watch\"}]"
            section("ecg")
            text +=
                ",\"heartRateNotifications\":[{\"start\":\(out.date(day * 86_400 + 14 * 3600)),"
                + "\"end\":\(out.date(day * 86_400 + 14 * 3600 + 600)),\"threshold\":120,"
                + "\"heartRate\":[{\"date\":\(out.date(day * 86_400 + 14 * 3600)),\"qty\":128}]}]"
            section("heartRateNotifications")
            text +=
                ",\"medications\":[{\"displayText\":\"Ibuprofen\",\"start\":\(out.date(day * 86_400 + 8 * 3600)),"
                + "\"dosage\":200,\"status\":\"taken\"}]"
            section("medications")
            out.raw(text)
        }

        private mutating func section(_ name: String) {
            summary.sectionItems[name, default: 0] += 1
            summary.records += 1
        }

        private mutating func draw(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(random.next() % UInt64(range.count))
        }

        private mutating func uuid() -> String {
            let high = random.next()
            let low = random.next()
            let hex = String(high, radix: 16) + String(low, radix: 16)
            return String(hex.prefix(32)).uppercased()
        }
    }
}
