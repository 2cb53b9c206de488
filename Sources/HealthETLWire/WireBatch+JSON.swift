import HealthETLCore

/// The batch as JSON, written directly: the uploaders encode every sample they send, and
/// `JSONEncoder` costs several microseconds a sample. Keys are in sorted order, optional fields
/// are left out when absent, and the result decodes to the same `WireBatch`.
extension WireBatch {
    public func jsonBytes() -> [UInt8] {
        var out = JSONWriter()
        out.raw("{\"batch_id\":")
        out.string(batchID)
        out.raw(",\"deletions\":[")
        for (index, deletion) in deletions.enumerated() {
            if index > 0 { out.raw(",") }
            out.raw("{")
            if let deletedAt = deletion.deletedAt { out.field("deleted_at", string: deletedAt) }
            out.raw("\"id\":")
            out.string(deletion.id)
            out.raw(",\"metric\":")
            out.string(deletion.metric)
            out.raw(",\"start\":")
            out.string(deletion.start)
            out.raw("}")
        }
        out.raw("],\"samples\":[")
        for (index, sample) in samples.enumerated() {
            if index > 0 { out.raw(",") }
            sample.write(to: &out)
        }
        out.raw("]}")
        return out.bytes
    }
}

extension WireSample {
    fileprivate func write(to out: inout JSONWriter) {
        out.raw("{")
        if let category { out.field("category", string: category) }
        if let device { out.field("device", string: device) }
        out.field("end", string: end)
        if let flags {
            out.raw("\"flags\":[")
            for (index, flag) in flags.enumerated() {
                if index > 0 { out.raw(",") }
                out.string(flag)
            }
            out.raw("],")
        }
        out.field("id", string: id)
        out.field("metric", string: metric)
        if let restoresDeletionAt { out.field("restores_deletion_at", string: restoresDeletionAt) }
        out.field("source", string: source)
        if let sourceVersion { out.field("source_version", string: sourceVersion) }
        out.field("start", string: start)
        if let timeZone { out.field("time_zone", string: timeZone) }
        if let userEntered { out.raw(userEntered ? "\"user_entered\":true," : "\"user_entered\":false,") }
        if let utcOffsetSeconds {
            out.raw("\"utc_offset_s\":")
            out.text(String(utcOffsetSeconds))
            out.raw(",")
        }
        if let value {
            out.raw("\"value\":")
            // A non-finite number has no JSON form: null, which the collector refuses by item.
            if value.isFinite { out.text(value.description) } else { out.raw("null") }
        } else {
            out.dropTrailingComma()
        }
        out.raw("}")
    }
}

/// A growing UTF-8 buffer of JSON, its strings escaped by `JSONText`.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 20) }

    /// Fixed JSON, copied from the binary's constant bytes.
    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Text that needs no escaping (a number).
    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func field(_ key: StaticString, string value: String) {
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        raw("\":")
        string(value)
        bytes.append(UInt8(ascii: ","))
    }

    mutating func dropTrailingComma() {
        if bytes.last == UInt8(ascii: ",") { bytes.removeLast() }
    }

    mutating func string(_ text: String) {
        JSONText.appendQuoted(text, to: &bytes)
    }
}
