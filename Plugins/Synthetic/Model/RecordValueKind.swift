/// What a simulated record's `value` holds.
enum RecordValueKind: UInt8 {
    /// A decimal mantissa, with the record's `scale`.
    case quantity
    /// A `CategoryValue` raw value.
    case category
    /// No value attribute at all.
    case absent
}
