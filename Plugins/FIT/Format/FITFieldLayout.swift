import HealthETLFIT

/// Where one field of a data message lies: its offset in the message, its size and base type.
struct FITFieldLayout: Sendable {
    var number: UInt8
    var offset: Int
    var size: Int
    var type: FITBaseType
}
