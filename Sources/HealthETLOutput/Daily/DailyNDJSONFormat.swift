import HealthETLCore

/// Daily figures as NDJSON: `{"kind":"daily_rollup",…}` and `{"kind":"sleep_night",…}` lines,
/// with the collector API's field names; durations in seconds.
public struct DailyNDJSONFormat: DailyFormat {
    private let units: [String: String]
    private var time = TimeText()

    public init(units: [String: String]) {
        self.units = units
    }

    public func begin(into bytes: inout [UInt8]) {}

    public mutating func append(_ rollup: DailyRollup, into bytes: inout [UInt8]) {
        ByteText.append("{\"kind\":\"daily_rollup\",\"metric\":", to: &bytes)
        JSONText.appendQuoted(rollup.metric, to: &bytes)
        ByteText.append(",\"day\":\"", to: &bytes)
        TimeText.appendDay(rollup.day, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        if let unit = units[rollup.metric] {
            ByteText.append(",\"unit\":", to: &bytes)
            JSONText.appendQuoted(unit, to: &bytes)
        }
        let values: [(StaticString, Double?)] = [
            (",\"sum\":", rollup.sum), (",\"avg\":", rollup.average), (",\"min\":", rollup.minimum),
            (",\"max\":", rollup.maximum), (",\"latest\":", rollup.latest),
        ]
        for (key, value) in values {
            guard let value else { continue }
            ByteText.append(key, to: &bytes)
            ByteText.append(value, to: &bytes)
        }
        ByteText.append(",\"count\":", to: &bytes)
        ByteText.append(Int64(rollup.count), to: &bytes)
        ByteText.append(",\"coverage_s\":", to: &bytes)
        ByteText.append(rollup.coverageSeconds, to: &bytes)
        ByteText.append(",\"sources\":", to: &bytes)
        ByteText.append(JSONText.array(rollup.sources), to: &bytes)
        ByteText.append("}\n", to: &bytes)
    }

    public mutating func append(_ night: SleepNight, into bytes: inout [UInt8]) {
        ByteText.append("{\"kind\":\"sleep_night\",\"night\":\"", to: &bytes)
        TimeText.appendDay(night.night, to: &bytes)
        ByteText.append("\",\"source\":", to: &bytes)
        JSONText.appendQuoted(night.source, to: &bytes)
        ByteText.append(",\"start\":\"", to: &bytes)
        time.appendISO8601(night.start, offset: 0, to: &bytes)
        ByteText.append("\",\"end\":\"", to: &bytes)
        time.appendISO8601(night.end, offset: 0, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        let durations: [(StaticString, Double)] = [
            (",\"in_bed_s\":", night.inBedSeconds), (",\"asleep_s\":", night.asleepSeconds),
            (",\"core_s\":", night.coreSeconds), (",\"deep_s\":", night.deepSeconds),
            (",\"rem_s\":", night.remSeconds), (",\"awake_s\":", night.awakeSeconds),
        ]
        for (key, seconds) in durations {
            ByteText.append(key, to: &bytes)
            ByteText.append(seconds, to: &bytes)
        }
        ByteText.append("}\n", to: &bytes)
    }
}
