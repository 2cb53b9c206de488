/// Why a FIT file could not be read past some byte: the offset (in the input as a whole) and
/// what was wrong there.
struct FITDamage: Error, Sendable, Equatable, CustomStringConvertible {
    let offset: Int64
    let reason: String
    /// The bytes ended inside a message (expected in a file already known to be cut off).
    var isCutOff = false

    var description: String { "\(reason) (byte \(offset))" }
}
