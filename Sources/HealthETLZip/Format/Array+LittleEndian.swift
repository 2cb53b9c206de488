extension [UInt8] {
    /// Appends `value` little-endian, as every ZIP record stores its fields.
    mutating func appendLittleEndian<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) {
        for shift in stride(from: 0, to: Value.bitWidth, by: 8) {
            append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}
