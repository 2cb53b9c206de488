/// One data message, read in place: its layout, its bytes and its resolved time.
///
/// Values are read on demand from the bytes, so a message whose fields nobody asks for costs
/// nothing beyond finding its end. Every read returns `nil` for the base type's invalid value.
struct FITMessage {
    let layout: FITMessageLayout
    let bytes: UnsafeRawBufferPointer
    /// The message's own `timestamp`, or the one its compressed header or `timestamp_16` gives.
    let timestamp: UInt32?

    var globalNumber: UInt16 { layout.globalNumber }

    /// How many values a field holds (an array field), 0 when the message lacks it.
    func count(_ field: UInt8) -> Int {
        guard let layout = layout.field(field) else { return 0 }
        return layout.size / layout.type.size
    }

    /// The bit pattern of one value, `nil` when absent, invalid or cut short by its declared size.
    func raw(_ field: UInt8, element: Int = 0) -> UInt64? {
        guard let field = layout.field(field), field.type != .string else { return nil }
        let size = field.type.size
        let start = field.offset + element * size
        guard element >= 0, start + size <= field.offset + field.size else { return nil }
        var value: UInt64 = 0
        if self.layout.bigEndian {
            for index in 0..<size { value = value << 8 | UInt64(bytes[start + index]) }
        } else {
            for index in stride(from: size - 1, through: 0, by: -1) {
                value = value << 8 | UInt64(bytes[start + index])
            }
        }
        if field.type == .byte {
            // A byte field is invalid only when every byte is 0xFF.
            return value == 0xFF && (0..<field.size).allSatisfy({ bytes[field.offset + $0] == 0xFF }) ? nil : value
        }
        return value == field.type.invalidPattern ? nil : value
    }

    /// An unsigned or enum value.
    func unsigned(_ field: UInt8, element: Int = 0) -> UInt64? {
        guard let type = layout.field(field)?.type, !type.isSigned, !type.isFloat else { return nil }
        return raw(field, element: element)
    }

    /// A value as a number in the profile's units: `raw / scale - offset`, any base type.
    func number(_ field: UInt8, element: Int = 0, scale: Double = 1, offset: Double = 0) -> Double? {
        guard let type = layout.field(field)?.type, let bits = raw(field, element: element) else { return nil }
        let value: Double
        switch type {
        case .sint8: value = Double(Int8(truncatingIfNeeded: bits))
        case .sint16: value = Double(Int16(truncatingIfNeeded: bits))
        case .sint32: value = Double(Int32(truncatingIfNeeded: bits))
        case .sint64: value = Double(Int64(bitPattern: bits))
        case .float32: value = Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        case .float64: value = Double(bitPattern: bits)
        default: value = Double(bits)
        }
        guard value.isFinite else { return nil }
        return value / scale - offset
    }

    /// A field's bytes as written, `nil` when the message lacks it.
    func fieldBytes(_ field: UInt8) -> UnsafeRawBufferPointer? {
        guard let field = layout.field(field) else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[field.offset..<(field.offset + field.size)])
    }

    /// A string field: UTF-8 up to its first NUL, `nil` when empty.
    func string(_ field: UInt8) -> String? {
        guard let field = layout.field(field), field.type == .string || field.type == .byte else { return nil }
        let text = bytes[field.offset..<(field.offset + field.size)].prefix { $0 != 0 }
        return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
    }
}
