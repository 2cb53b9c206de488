import HealthETLFIT

/// Reads the records of one FIT file's data section: definition messages set up the 16 local
/// message types, data messages are handed on in order with their time resolved.
///
/// Times: a message's `timestamp` (field 253) sets the last time; a compressed-timestamp header
/// adds its 5-bit offset to it (rolling over every 32 s); a monitoring message's `timestamp_16`
/// adds its low 16 bits (rolling over every 18 h). Developer fields are passed over by their
/// declared sizes.
struct FITMessageDecoder {
    static let timestampField: UInt8 = 253
    static let monitoringMessage: UInt16 = 55
    static let timestamp16Field: UInt8 = 26

    private var layouts = [FITMessageLayout?](repeating: nil, count: 16)
    /// The last full time seen, which compressed headers and `timestamp_16` count from.
    private(set) var lastTimestamp: UInt32?
    /// Data messages read.
    private(set) var messages = 0

    /// Reads `data`; `base` is the input offset of its first byte.
    /// - Parameter emit: gets each data message and the input offset just after it.
    /// - Throws: `FITDamage` where the data cannot be read on (an undefined local type, a record
    ///   cut off), after every message before it was handed on; or what `emit` throws.
    mutating func decode(
        _ data: UnsafeRawBufferPointer, base: Int64, emit: (FITMessage, Int64) throws -> Void
    ) throws {
        var at = 0
        while at < data.count {
            let header = data[at]
            let position = base + Int64(at)
            if header & 0x80 != 0 {
                // Compressed-timestamp header: local type in bits 5–6, seconds offset in bits 0–4.
                let local = Int((header >> 5) & 0x03)
                guard let layout = layouts[local] else { throw undefined(local, at: position) }
                guard at + 1 + layout.size <= data.count else { throw cut(at: position) }
                let time = lastTimestamp.map { Self.advance($0, by: header & 0x1F) }
                lastTimestamp = time ?? lastTimestamp
                try deliver(layout, data, from: at + 1, compressedTime: time, emit: emit, base: base)
                at += 1 + layout.size
            } else if header & 0x40 != 0 {
                at = try define(data, at: at, hasDeveloperFields: header & 0x20 != 0, base: base)
            } else {
                let local = Int(header & 0x0F)
                guard let layout = layouts[local] else { throw undefined(local, at: position) }
                guard at + 1 + layout.size <= data.count else { throw cut(at: position) }
                try deliver(layout, data, from: at + 1, compressedTime: nil, emit: emit, base: base)
                at += 1 + layout.size
            }
        }
    }

    private mutating func deliver(
        _ layout: FITMessageLayout, _ data: UnsafeRawBufferPointer, from start: Int, compressedTime: UInt32?,
        emit: (FITMessage, Int64) throws -> Void, base: Int64
    ) throws {
        let bytes = UnsafeRawBufferPointer(rebasing: data[start..<(start + layout.size)])
        var message = FITMessage(layout: layout, bytes: bytes, timestamp: compressedTime)
        if let own = message.raw(Self.timestampField).map({ UInt32(truncatingIfNeeded: $0) }) {
            lastTimestamp = own
            message = FITMessage(layout: layout, bytes: bytes, timestamp: own)
        } else if compressedTime == nil, layout.globalNumber == Self.monitoringMessage,
            let low = message.raw(Self.timestamp16Field).map({ UInt16(truncatingIfNeeded: $0) }),
            let last = lastTimestamp
        {
            let time = last &+ UInt32(low &- UInt16(truncatingIfNeeded: last))
            lastTimestamp = time
            message = FITMessage(layout: layout, bytes: bytes, timestamp: time)
        }
        messages += 1
        try emit(message, base + Int64(start + layout.size))
    }

    /// Reads a definition message at `at`, returning where the next record starts.
    private mutating func define(
        _ data: UnsafeRawBufferPointer, at: Int, hasDeveloperFields: Bool, base: Int64
    ) throws(FITDamage) -> Int {
        let position = base + Int64(at)
        guard at + 6 <= data.count else { throw cut(at: position) }
        let local = Int(data[at] & 0x0F)
        let bigEndian = data[at + 2] == 1
        let global =
            bigEndian
            ? UInt16(data[at + 3]) << 8 | UInt16(data[at + 4]) : UInt16(data[at + 3]) | UInt16(data[at + 4]) << 8
        let fieldCount = Int(data[at + 5])
        var next = at + 6 + fieldCount * 3
        guard next <= data.count else { throw cut(at: position) }
        var fields: [FITFieldLayout] = []
        fields.reserveCapacity(fieldCount)
        var offset = 0
        for index in 0..<fieldCount {
            let place = at + 6 + index * 3
            let size = Int(data[place + 1])
            fields.append(
                FITFieldLayout(
                    number: data[place], offset: offset, size: size, type: FITBaseType(declared: data[place + 2])))
            offset += size
        }
        var developerBytes = 0
        if hasDeveloperFields {
            guard next + 1 <= data.count else { throw cut(at: position) }
            let count = Int(data[next])
            guard next + 1 + count * 3 <= data.count else { throw cut(at: position) }
            for index in 0..<count { developerBytes += Int(data[next + 1 + index * 3 + 1]) }
            next += 1 + count * 3
        }
        layouts[local] = FITMessageLayout(
            globalNumber: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes)
        return next
    }

    /// `last` moved on to the 5-bit `offset`, rolling over at 32 s.
    static func advance(_ last: UInt32, by offset: UInt8) -> UInt32 {
        let low = UInt32(offset & 0x1F)
        let base = last & ~0x1F
        return low >= last & 0x1F ? base &+ low : base &+ low &+ 0x20
    }

    private func undefined(_ local: Int, at position: Int64) -> FITDamage {
        FITDamage(offset: position, reason: "a data message for local type \(local), which no definition set up")
    }

    private func cut(at position: Int64) -> FITDamage {
        FITDamage(offset: position, reason: "the file is cut off inside a message", isCutOff: true)
    }
}
