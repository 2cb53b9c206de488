/// Reads a `POST /v1/batches` body straight from its bytes into a `WireBatch`, several times
/// faster than `JSONDecoder` (which builds a tree of every value first and was the collector's
/// largest cost per sample).
///
/// It reads the batches clients write: every field known, each once, keys without escapes. Any
/// other body — unknown or repeated keys, a wrong type, a number or string it cannot read
/// exactly as `JSONDecoder` would — gives nil, and `WireBatch.decode` asks `JSONDecoder`, which
/// takes it or explains what is wrong. So what the collector accepts, and the batch it gets,
/// never depend on which of the two read the body (a fuzz test holds them to that).
public enum WireBatchParser {
    public static func parse(_ body: [UInt8]) -> WireBatch? {
        read(body)?.batch
    }

    /// The batch, and whether the body is byte for byte its canonical JSON (`jsonBytes()`, what
    /// healthetl's uploaders send): then the body's own digest is the batch's canonical digest.
    public static func read(_ body: [UInt8]) -> (batch: WireBatch, isCanonical: Bool)? {
        body.withUnsafeBufferPointer { bytes in
            var reader = JSONByteReader(bytes)
            guard let batch = batch(&reader) else { return nil }
            reader.skipWhitespace()
            return reader.isAtEnd ? (batch, reader.isCanonical) : nil
        }
    }

    /// Slots of the string fields whose values repeat from one item to the next.
    private enum Repeating {
        static let metric = 0
        static let source = 1
        static let sourceVersion = 2
        static let device = 3
        static let timeZone = 4
        static let category = 5
    }

    private static func batch(_ reader: inout JSONByteReader) -> WireBatch? {
        var batchID: String?
        var samples: [WireSample]?
        var deletions: [WireDeletion]?
        let complete = object(&reader) { reader, key in
            if equal(key, "batch_id"), batchID == nil {
                batchID = reader.string()
                return batchID != nil
            }
            if equal(key, "samples"), samples == nil {
                samples = array(&reader, sample)
                return samples != nil
            }
            if equal(key, "deletions"), deletions == nil {
                deletions = array(&reader, deletion)
                return deletions != nil
            }
            return false
        }
        guard complete, let batchID, let samples, let deletions else { return nil }
        return WireBatch(batchID: batchID, samples: samples, deletions: deletions)
    }

    private static func sample(_ reader: inout JSONByteReader) -> WireSample? {
        var fields = SampleFields()
        let complete = object(&reader) { reader, key in fields.read(key, from: &reader) }
        guard complete, let id = fields.id, let metric = fields.metric, let source = fields.source,
            let start = fields.start, let end = fields.end
        else { return nil }
        return WireSample(
            id: id, metric: metric, source: source, sourceVersion: fields.sourceVersion.value,
            device: fields.device.value,
            start: start, end: end, utcOffsetSeconds: fields.utcOffsetSeconds.value, timeZone: fields.timeZone.value,
            value: fields.value.value, category: fields.category.value, userEntered: fields.userEntered.value,
            flags: fields.flags.value, restoresDeletionAt: fields.restoresDeletionAt.value)
    }

    private static func deletion(_ reader: inout JSONByteReader) -> WireDeletion? {
        var id: String?
        var metric: String?
        var start: String?
        var deletedAt = Optional<String>.Field()
        let complete = object(&reader) { reader, key in
            switch key.count {
            case 2 where equal(key, "id") && id == nil:
                id = reader.string()
                return id != nil
            case 6 where equal(key, "metric") && metric == nil:
                metric = reader.string(remembering: Repeating.metric)
                return metric != nil
            case 5 where equal(key, "start") && start == nil:
                start = reader.string()
                return start != nil
            case 10 where equal(key, "deleted_at"):
                return deletedAt.read(&reader) { $0.string() }
            default:
                return false
            }
        }
        guard complete, let id, let metric, let start else { return nil }
        return WireDeletion(id: id, metric: metric, start: start, deletedAt: deletedAt.value)
    }

    /// The fields of one sample as they are read.
    private struct SampleFields {
        var id: String?
        var metric: String?
        var source: String?
        var start: String?
        var end: String?
        var sourceVersion = Optional<String>.Field()
        var device = Optional<String>.Field()
        var utcOffsetSeconds = Optional<Int>.Field()
        var timeZone = Optional<String>.Field()
        var value = Optional<Double>.Field()
        var category = Optional<String>.Field()
        var userEntered = Optional<Bool>.Field()
        var flags = Optional<[String]>.Field()
        var restoresDeletionAt = Optional<String>.Field()

        /// Reads the value of `key`; false for a key it does not know or has read already, or a
        /// value it cannot read.
        mutating func read(_ key: UnsafeBufferPointer<UInt8>, from reader: inout JSONByteReader) -> Bool {
            switch key.count {
            case 2 where equal(key, "id"): return Self.required(&id, &reader) { $0.string() }
            case 3 where equal(key, "end"): return Self.required(&end, &reader) { $0.string() }
            case 5 where equal(key, "start"): return Self.required(&start, &reader) { $0.string() }
            case 5 where equal(key, "value"): return value.read(&reader) { $0.double() }
            case 5 where equal(key, "flags"): return flags.read(&reader) { array(&$0) { $0.string() } }
            case 6 where equal(key, "metric"):
                return Self.required(&metric, &reader) { $0.string(remembering: Repeating.metric) }
            case 6 where equal(key, "source"):
                return Self.required(&source, &reader) { $0.string(remembering: Repeating.source) }
            case 6 where equal(key, "device"):
                return device.read(&reader) { $0.string(remembering: Repeating.device) }
            case 8 where equal(key, "category"):
                return category.read(&reader) { $0.string(remembering: Repeating.category) }
            case 9 where equal(key, "time_zone"):
                return timeZone.read(&reader) { $0.string(remembering: Repeating.timeZone) }
            case 12 where equal(key, "utc_offset_s"): return utcOffsetSeconds.read(&reader) { $0.integer() }
            case 12 where equal(key, "user_entered"): return userEntered.read(&reader) { $0.bool() }
            case 14 where equal(key, "source_version"):
                return sourceVersion.read(&reader) { $0.string(remembering: Repeating.sourceVersion) }
            case 20 where equal(key, "restores_deletion_at"): return restoresDeletionAt.read(&reader) { $0.string() }
            default: return false
            }
        }

        private static func required(
            _ field: inout String?, _ reader: inout JSONByteReader, _ read: (inout JSONByteReader) -> String?
        ) -> Bool {
            guard field == nil else { return false }
            field = read(&reader)
            return field != nil
        }
    }

    // MARK: - Shapes

    /// Reads an object, handing each key to `member`, which reads its value (false: give up).
    private static func object(
        _ reader: inout JSONByteReader, _ member: (inout JSONByteReader, UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        guard reader.take(UInt8(ascii: "{")) else { return false }
        if reader.take(UInt8(ascii: "}")) { return true }
        var previous: UnsafeBufferPointer<UInt8>?
        repeat {
            guard let key = reader.key(), member(&reader, key) else { return false }
            // The writer puts keys in byte order.
            if let previous, !follows(key, previous) { reader.noteNotCanonical() }
            previous = key
        } while reader.take(UInt8(ascii: ","))
        return reader.take(UInt8(ascii: "}"))
    }

    /// Whether `key` sorts after `previous`, byte by byte.
    private static func follows(_ key: UnsafeBufferPointer<UInt8>, _ previous: UnsafeBufferPointer<UInt8>) -> Bool {
        for (byte, earlier) in zip(key, previous) where byte != earlier { return byte > earlier }
        return key.count > previous.count
    }

    private static func array<Element>(
        _ reader: inout JSONByteReader, _ element: (inout JSONByteReader) -> Element?
    ) -> [Element]? {
        guard reader.take(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        if reader.take(UInt8(ascii: "]")) { return elements }
        repeat {
            guard let next = element(&reader) else { return nil }
            elements.append(next)
        } while reader.take(UInt8(ascii: ","))
        return reader.take(UInt8(ascii: "]")) ? elements : nil
    }

    private static func equal(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        key.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
}

extension Optional {
    /// An optional field of the wire format: absent, `null`, or a value, and whether it was seen.
    fileprivate struct Field {
        private(set) var value: Wrapped?
        private var seen = false

        /// Reads `null` or a value; false if the key came before or the value cannot be read.
        mutating func read(_ reader: inout JSONByteReader, _ readValue: (inout JSONByteReader) -> Wrapped?) -> Bool {
            guard !seen else { return false }
            seen = true
            if reader.takeNull() { return true }
            value = readValue(&reader)
            return value != nil
        }
    }
}
