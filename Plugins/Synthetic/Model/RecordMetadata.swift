/// The metadata children a simulated Record carries.
struct RecordMetadata: OptionSet {
    let rawValue: UInt8

    static let timeZone = RecordMetadata(rawValue: 1 << 0)
    static let userEnteredNo = RecordMetadata(rawValue: 1 << 1)
    static let userEnteredYes = RecordMetadata(rawValue: 1 << 2)
    /// `HKMetadataKeyHeartRateMotionContext`, with the record's `motionContext`.
    static let motionContext = RecordMetadata(rawValue: 1 << 3)
    /// The beat-to-beat list of a heart rate variability record.
    static let beats = RecordMetadata(rawValue: 1 << 4)
}
