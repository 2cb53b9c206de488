import HealthETLCore

/// Samples as NDJSON: one JSON object per line, keys in a fixed order, absent fields left out.
/// Times are ISO 8601 at the sample's own offset (`Z` when the source gave none).
public struct NDJSONSampleFormat: SampleFormat {
    private let units: [String: String]
    private var time = TimeText()
    /// Units are written with their key, `,"unit":"…"`, or not at all for a metric without one.
    private var names = WrittenNames()
    private var version = RepeatedField(escape: JSONText.appendQuoted)

    /// - Parameter units: canonical unit per metric id (the catalog's).
    public init(units: [String: String]) {
        self.units = units
    }

    public mutating func begin(names: ExportNames, into bytes: inout [UInt8]) {
        self.names = WrittenNames(names, units: units, escape: JSONText.appendQuoted) { unit, bytes in
            guard !unit.isEmpty else { return }
            ByteText.append(",\"unit\":", to: &bytes)
            JSONText.appendQuoted(unit, to: &bytes)
        }
    }

    public mutating func append(_ sample: ExportedSample, into bytes: inout [UInt8]) {
        ByteText.append("{\"id\":\"", to: &bytes)
        HexText.append(sample.id, to: &bytes)
        ByteText.append("\",\"metric\":", to: &bytes)
        names.metrics.append(sample.metric, to: &bytes)
        ByteText.append(",\"start\":\"", to: &bytes)
        time.appendISO8601(sample.start, offset: sample.utcOffsetSeconds, to: &bytes)
        ByteText.append("\",\"end\":\"", to: &bytes)
        time.appendISO8601(sample.end, offset: sample.utcOffsetSeconds, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        if let offset = sample.utcOffsetSeconds {
            ByteText.append(",\"utc_offset_s\":", to: &bytes)
            ByteText.append(Int64(offset), to: &bytes)
        }
        if let value = sample.value {
            ByteText.append(",\"value\":", to: &bytes)
            ByteText.append(value, to: &bytes)
            names.units.append(sample.metric, to: &bytes)
        }
        if let category = sample.category {
            ByteText.append(",\"category\":", to: &bytes)
            JSONText.appendQuoted(category, to: &bytes)
        }
        ByteText.append(",\"source\":", to: &bytes)
        names.sources.append(sample.source, to: &bytes)
        if let text = sample.sourceVersion {
            ByteText.append(",\"source_version\":", to: &bytes)
            version.append(text, to: &bytes)
        }
        if let device = sample.device {
            ByteText.append(",\"device\":", to: &bytes)
            names.devices.append(device, to: &bytes)
        }
        if !sample.flags.isEmpty {
            ByteText.append(",\"flags\":", to: &bytes)
            ByteText.append(JSONText.array(sample.flags.names), to: &bytes)
        }
        if let metadata = sample.metadataJSON, metadata != "[]" {
            // Stored as JSON already (an array of [key, value] pairs): copied, not re-encoded.
            ByteText.append(",\"metadata\":", to: &bytes)
            ByteText.append(metadata, to: &bytes)
        }
        ByteText.append("}\n", to: &bytes)
    }

    public func finish(into bytes: inout [UInt8]) {}
}
