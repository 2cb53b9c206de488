import HealthETLCore

/// Daily figures as one CSV: a row per rollup (`kind` daily_rollup) and per sleep night (`kind`
/// sleep_night), in the columns each kind has; the others are left empty. Durations in seconds.
public struct DailyCSVFormat: DailyFormat {
    public static let columns = [
        "kind", "metric", "day", "unit", "sum", "avg", "min", "max", "latest", "count", "coverage_s", "sources",
        "night_start", "night_end", "in_bed_s", "asleep_s", "core_s", "deep_s", "rem_s", "awake_s",
    ]
    private let units: [String: String]
    private let formulas: CSVText.Formulas
    private var time = TimeText()

    /// - Parameter formulas: how cells a spreadsheet would run are written (`CSVText`).
    public init(units: [String: String], formulas: CSVText.Formulas = .neutralized) {
        self.units = units
        self.formulas = formulas
    }

    public func begin(into bytes: inout [UInt8]) {
        CSVText.appendRow(Self.columns, to: &bytes)
    }

    public mutating func append(_ rollup: DailyRollup, into bytes: inout [UInt8]) {
        let comma = UInt8(ascii: ",")
        ByteText.append("daily_rollup,", to: &bytes)
        CSVText.appendField(rollup.metric, formulas: formulas, to: &bytes)
        bytes.append(comma)
        TimeText.appendDay(rollup.day, to: &bytes)
        bytes.append(comma)
        if let unit = units[rollup.metric] { CSVText.appendField(unit, formulas: formulas, to: &bytes) }
        for value in [rollup.sum, rollup.average, rollup.minimum, rollup.maximum, rollup.latest] {
            bytes.append(comma)
            if let value { ByteText.append(value, to: &bytes) }
        }
        bytes.append(comma)
        ByteText.append(Int64(rollup.count), to: &bytes)
        bytes.append(comma)
        ByteText.append(rollup.coverageSeconds, to: &bytes)
        bytes.append(comma)
        CSVText.appendField(rollup.sources.joined(separator: "|"), formulas: formulas, to: &bytes)
        ByteText.append(",,,,,,,,", to: &bytes)
        CSVText.appendLineEnd(to: &bytes)
    }

    public mutating func append(_ night: SleepNight, into bytes: inout [UInt8]) {
        let comma = UInt8(ascii: ",")
        ByteText.append("sleep_night,sleep_analysis,", to: &bytes)
        TimeText.appendDay(night.night, to: &bytes)
        ByteText.append(",,,,,,,,,", to: &bytes)
        CSVText.appendField(night.source, formulas: formulas, to: &bytes)
        bytes.append(comma)
        time.appendISO8601(night.start, offset: 0, to: &bytes)
        bytes.append(comma)
        time.appendISO8601(night.end, offset: 0, to: &bytes)
        for seconds in [
            night.inBedSeconds, night.asleepSeconds, night.coreSeconds, night.deepSeconds, night.remSeconds,
            night.awakeSeconds,
        ] {
            bytes.append(comma)
            ByteText.append(seconds, to: &bytes)
        }
        CSVText.appendLineEnd(to: &bytes)
    }
}
