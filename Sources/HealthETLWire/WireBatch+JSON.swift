import HealthETLCore

/// The batch as JSON, written directly: the uploaders encode every sample they send, and
/// `JSONEncoder` costs several microseconds a sample. Keys are in sorted order, optional fields
/// are left out when absent, and the result decodes to the same `WireBatch`.
extension WireBatch {
    public func jsonBytes() -> [UInt8] {
        Self.json(batchID: batchID, deletions: deletions, samples: samples) { $0.write(to: &$1) }
    }

    /// `WireBatch(batch).jsonBytes()`, byte for byte, written straight from the samples: the
    /// wire form's strings (an id and two instants a sample) were allocations for one use.
    public static func jsonBytes(of batch: DeliveryBatch) -> [UInt8] {
        json(batchID: batch.batchID, deletions: batch.deletions.map(WireDeletion.init), samples: batch.samples) {
            $0.writeWire(to: &$1)
        }
    }

    private static func json<Item>(
        batchID: String, deletions: [WireDeletion], samples: [Item], write: (Item, inout JSONWriter) -> Void
    ) -> [UInt8] {
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
            write(sample, &out)
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
        if let flags { out.field("flags", strings: flags) }
        out.field("id", string: id)
        out.field("metric", string: metric)
        if let restoresDeletionAt { out.field("restores_deletion_at", string: restoresDeletionAt) }
        out.field("source", string: source)
        if let sourceVersion { out.field("source_version", string: sourceVersion) }
        out.field("start", string: start)
        if let timeZone { out.field("time_zone", string: timeZone) }
        if let userEntered { out.raw(userEntered ? "\"user_entered\":true," : "\"user_entered\":false,") }
        out.endSample(utcOffsetSeconds: utcOffsetSeconds, value: value)
    }
}

extension Sample {
    /// The sample as `WireSample(self).write(to:)` writes it.
    fileprivate func writeWire(to out: inout JSONWriter) {
        out.raw("{")
        if let category { out.field("category", string: category) }
        if let device { out.field("device", string: device) }
        out.field("end", instant: end)
        if !flags.isEmpty { out.field("flags", strings: flags.names) }
        out.raw("\"id\":\"")
        id.appendHex(to: &out.bytes)
        out.raw("\",")
        out.field("metric", string: metric)
        if let restoresDeletionAt { out.field("restores_deletion_at", instant: restoresDeletionAt) }
        out.field("source", string: sourceName)
        if let sourceVersion { out.field("source_version", string: sourceVersion) }
        out.field("start", instant: start)
        if let timeZone { out.field("time_zone", string: timeZone) }
        if isUserEntered { out.raw("\"user_entered\":true,") }
        out.endSample(utcOffsetSeconds: utcOffsetSeconds.map(Int.init), value: value)
    }
}

/// A growing UTF-8 buffer of JSON, its strings escaped by `JSONText`.
struct JSONWriter {
    fileprivate(set) var bytes: [UInt8] = []

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

    /// `"key":"<instant>",` as `Instant.description` spells it.
    mutating func field(_ key: StaticString, instant: Instant) {
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        raw("\":\"")
        instant.appendDescription(to: &bytes)
        raw("\",")
    }

    /// `"key":["a","b"],`.
    mutating func field(_ key: StaticString, strings: [String]) {
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        raw("\":[")
        for (index, text) in strings.enumerated() {
            if index > 0 { raw(",") }
            string(text)
        }
        raw("],")
    }

    /// A sample's last two keys, then its `}` (the comma after the last field dropped).
    mutating func endSample(utcOffsetSeconds: Int?, value: Double?) {
        if let utcOffsetSeconds {
            raw("\"utc_offset_s\":")
            text(String(utcOffsetSeconds))
            raw(",")
        }
        if let value {
            raw("\"value\":")
            // A non-finite number has no JSON form: null, which the collector refuses by item.
            if value.isFinite { text(value.description) } else { raw("null") }
        } else {
            dropTrailingComma()
        }
        raw("}")
    }

    private mutating func dropTrailingComma() {
        if bytes.last == UInt8(ascii: ",") { bytes.removeLast() }
    }

    mutating func string(_ text: String) {
        JSONText.appendQuoted(text, to: &bytes)
    }
}
