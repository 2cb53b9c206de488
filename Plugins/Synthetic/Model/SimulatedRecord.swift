/// One Record of the simulated person, before formatting. Times are seconds since the epoch.
struct SimulatedRecord {
    var start: Int64
    var end: Int64
    var created: Int64
    /// The value's decimal mantissa (quantities) or a CategoryValue raw value.
    var value: Int64
    /// Per-record randomness used at write time: the device pointer, HRV beats.
    var noise: UInt64
    var source: Source
    var unit: ExportUnit
    /// Decimal places of a quantity's mantissa.
    var scale: UInt8
    var kind: RecordValueKind
    var metadata: RecordMetadata
    /// The heart rate's motion context (0 unknown, 1 sedentary, 2 active), when `metadata` has it.
    var motionContext: UInt8
    /// Written twice, byte for byte (Apple's exports contain exact duplicates).
    var duplicate: Bool
}
