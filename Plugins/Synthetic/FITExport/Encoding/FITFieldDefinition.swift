import HealthETLFIT

/// One field of a definition message: its number in the FIT profile, its base type, and how many
/// values it holds (an array field such as hrv.time holds several; a string, its byte length).
struct FITFieldDefinition: Sendable {
    let number: UInt8
    let type: FITBaseType
    let count: Int

    init(_ number: UInt8, _ type: FITBaseType, count: Int = 1) {
        self.number = number
        self.type = type
        self.count = count
    }

    /// Bytes the field takes in every data message.
    var size: Int { type.size * count }
}
