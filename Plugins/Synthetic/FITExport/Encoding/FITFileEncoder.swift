import HealthETLFIT

/// Builds one FIT file in memory: definition messages, data messages with normal or
/// compressed-timestamp record headers, then the 14-byte header (with its CRC) and the file CRC.
///
/// A file is a few hundred kilobytes at most (a day of monitoring, an hour of one-second
/// records), so it is built whole and written in one piece. Callers pass raw values already in
/// the profile's scale; a value for a field the definition lacks is a programming error.
struct FITFileEncoder {
    /// Protocol 2.0, high nibble major.
    private static let protocolVersion: UInt8 = 0x20
    /// Profile 21.40, as major × 100 + minor.
    private static let profileVersion: UInt16 = 2140
    private static let headerSize = 14

    private var body: [UInt8] = []
    /// The definition each local message type (0–15) holds now; a later definition replaces it.
    private var locals = [FITMessageDefinition?](repeating: nil, count: 16)
    /// The last full timestamp written (FIT seconds): compressed headers count from it.
    private var lastTimestamp: Int64?
    /// Data messages by profile name.
    private(set) var messages: [String: Int] = [:]

    init() { body.reserveCapacity(1 << 16) }

    /// A definition message: `local` (0–15) holds `definition` until it is defined again.
    mutating func define(_ local: Int, _ definition: FITMessageDefinition) {
        precondition((0..<16).contains(local), "local message types are 0-15")
        body.append(0x40 | UInt8(local))
        body.append(0)  // reserved
        body.append(definition.bigEndian ? 1 : 0)
        append(UInt64(definition.number), size: 2, bigEndian: definition.bigEndian)
        body.append(UInt8(definition.fields.count))
        for field in definition.fields {
            precondition(field.size < 256, "a field holds at most 255 bytes")
            body.append(field.number)
            body.append(UInt8(field.size))
            body.append(field.type.rawValue)
        }
        locals[local] = definition
    }

    /// A data message with a normal header.
    mutating func write(_ local: Int, _ values: KeyValuePairs<UInt8, FITValue>) {
        body.append(UInt8(local))
        appendValues(local, values)
    }

    /// A data message with a compressed-timestamp header: its time is the last full timestamp
    /// with the low five bits replaced, so it must fall 0–31 s after it, and the local type
    /// must be 0–3. The message's definition carries no timestamp field of its own.
    mutating func writeCompressed(_ local: Int, at unixSeconds: Int64, _ values: KeyValuePairs<UInt8, FITValue>) {
        let time = FITTime.fitSeconds(unixSeconds)
        guard let last = lastTimestamp else { preconditionFailure("a compressed timestamp needs a full one before it") }
        precondition((0..<4).contains(local), "compressed headers reach local types 0-3 only")
        precondition((0..<32).contains(time - last), "a compressed timestamp lies 0-31 s after the last full one")
        body.append(0x80 | UInt8(local) << 5 | UInt8(time & 0x1F))
        lastTimestamp = time
        appendValues(local, values)
    }

    /// The finished file: header, messages, CRC.
    func finished() -> [UInt8] {
        var file: [UInt8] = []
        file.reserveCapacity(Self.headerSize + body.count + 2)
        file.append(UInt8(Self.headerSize))
        file.append(Self.protocolVersion)
        file.append(UInt8(Self.profileVersion & 0xFF))
        file.append(UInt8(Self.profileVersion >> 8))
        for shift in stride(from: 0, to: 32, by: 8) { file.append(UInt8(truncatingIfNeeded: body.count >> shift)) }
        file.append(contentsOf: Array(".FIT".utf8))
        let headerCRC = FITCRC.update(0, with: file)
        file.append(UInt8(headerCRC & 0xFF))
        file.append(UInt8(headerCRC >> 8))
        file.append(contentsOf: body)
        let crc = FITCRC.update(0, with: file)
        file.append(UInt8(crc & 0xFF))
        file.append(UInt8(crc >> 8))
        return file
    }

    // MARK: - Values

    private mutating func appendValues(_ local: Int, _ values: KeyValuePairs<UInt8, FITValue>) {
        guard let definition = locals[local] else { preconditionFailure("local message type \(local) is not defined") }
        // An invalid value may name a field the layout leaves out (a run's record has no power).
        for (number, value) in values {
            if case .invalid = value { continue }
            precondition(
                definition.fields.contains { $0.number == number },
                "\(definition.name) is defined without field \(number)")
        }
        for field in definition.fields {
            let value = values.first { $0.key == field.number }?.value ?? .invalid
            append(value, as: field, bigEndian: definition.bigEndian)
            if field.number == FITProfile.timestamp, case .int(let time) = value { lastTimestamp = time }
        }
        messages[definition.name, default: 0] += 1
    }

    private mutating func append(_ value: FITValue, as field: FITFieldDefinition, bigEndian: Bool) {
        let size = field.type.size
        let invalid = field.type.invalidPattern
        switch value {
        case .int(let number):
            append(UInt64(bitPattern: number), size: size, bigEndian: bigEndian)
            for _ in 1..<max(field.count, 1) { append(invalid, size: size, bigEndian: bigEndian) }
        case .ints(let numbers):
            precondition(numbers.count <= field.count, "more values than field \(field.number) holds")
            for index in 0..<field.count {
                let bits = index < numbers.count ? UInt64(bitPattern: numbers[index]) : invalid
                append(bits, size: size, bigEndian: bigEndian)
            }
        case .invalid:
            for _ in 0..<field.count { append(invalid, size: size, bigEndian: bigEndian) }
        }
    }

    private mutating func append(_ bits: UInt64, size: Int, bigEndian: Bool) {
        for index in 0..<size {
            let shift = (bigEndian ? size - 1 - index : index) * 8
            body.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
    }
}
