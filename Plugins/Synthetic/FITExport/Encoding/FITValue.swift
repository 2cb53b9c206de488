/// A field's raw value in a data message, already scaled and offset as the profile says: the
/// encoder only lays out bytes.
enum FITValue: Sendable {
    /// One integer, written in the field's size (its low bytes).
    case int(Int64)
    /// An array field's values; slots beyond them are written invalid.
    case ints([Int64])
    /// No value: the base type's invalid pattern.
    case invalid

    /// A `date_time` field or timestamp: seconds since the FIT epoch, from Unix seconds.
    static func time(_ unixSeconds: Int64) -> FITValue { .int(FITTime.fitSeconds(unixSeconds)) }

    /// A physical value in the profile's scale and offset: raw = (value + offset) × scale, rounded.
    static func scaled(_ value: Double, _ scale: Double, offset: Double = 0) -> FITValue {
        .int(Int64(((value + offset) * scale).rounded()))
    }
}
