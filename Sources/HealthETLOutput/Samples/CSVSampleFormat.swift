import HealthETLCore

/// Samples as CSV (RFC 4180, CRLF): one row per sample, times both local (at the sample's own
/// offset) and UTC, the value in the metric's canonical unit, which the `unit` column names.
public struct CSVSampleFormat: SampleFormat {
    public static let columns = [
        "metric", "start_local", "end_local", "utc_offset", "start_utc", "end_utc", "value", "unit", "category",
        "source", "source_version", "device", "flags", "id",
    ]
    private let units: [String: String]
    private let formulas: CSVText.Formulas
    private var time = TimeText()
    private var names = WrittenNames()
    private var version: RepeatedField

    /// - Parameters:
    ///   - units: canonical unit per metric id (the catalog's).
    ///   - formulas: how cells a spreadsheet would run are written (`CSVText`).
    public init(units: [String: String], formulas: CSVText.Formulas = .neutralized) {
        self.units = units
        self.formulas = formulas
        version = RepeatedField { CSVText.appendField($0, formulas: formulas, to: &$1) }
    }

    public mutating func begin(names: ExportNames, into bytes: inout [UInt8]) {
        let field = { [formulas] (text: String, bytes: inout [UInt8]) in
            CSVText.appendField(text, formulas: formulas, to: &bytes)
        }
        self.names = WrittenNames(names, units: units, escape: field, unit: field)
        CSVText.appendRow(Self.columns, to: &bytes)
    }

    public mutating func append(_ sample: ExportedSample, into bytes: inout [UInt8]) {
        let comma = UInt8(ascii: ",")
        names.metrics.append(sample.metric, to: &bytes)
        bytes.append(comma)
        if let offset = sample.utcOffsetSeconds {
            time.appendLocal(sample.start, offset: offset, to: &bytes)
            bytes.append(comma)
            time.appendLocal(sample.end, offset: offset, to: &bytes)
            bytes.append(comma)
            if offset == 0 {
                ByteText.append("+00:00", to: &bytes)
            } else {
                TimeText.appendOffset(Int64(offset), to: &bytes)
            }
        } else {
            bytes.append(comma)
            bytes.append(comma)
        }
        bytes.append(comma)
        time.appendISO8601(sample.start, offset: 0, to: &bytes)
        bytes.append(comma)
        time.appendISO8601(sample.end, offset: 0, to: &bytes)
        bytes.append(comma)
        if let value = sample.value {
            ByteText.append(value, to: &bytes)
            bytes.append(comma)
            names.units.append(sample.metric, to: &bytes)
        } else {
            bytes.append(comma)
        }
        bytes.append(comma)
        if let category = sample.category { CSVText.appendField(category, formulas: formulas, to: &bytes) }
        bytes.append(comma)
        names.sources.append(sample.source, to: &bytes)
        bytes.append(comma)
        if let text = sample.sourceVersion { version.append(text, to: &bytes) }
        bytes.append(comma)
        if let device = sample.device { names.devices.append(device, to: &bytes) }
        bytes.append(comma)
        if !sample.flags.isEmpty {
            CSVText.appendField(sample.flags.names.joined(separator: "|"), formulas: formulas, to: &bytes)
        }
        bytes.append(comma)
        HexText.append(sample.id, to: &bytes)
        CSVText.appendLineEnd(to: &bytes)
    }

    public func finish(into bytes: inout [UInt8]) {}
}
