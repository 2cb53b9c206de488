/// Why a JSON text could not be read, with the byte offset where it went wrong.
struct JSONStreamError: Error, Equatable, CustomStringConvertible {
    enum Kind: Equatable, Sendable {
        /// Not JSON at that byte (an unexpected character, a bad escape or number).
        case syntax
        /// The text ended inside a value.
        case truncated
        /// A string, number or nesting beyond `JSONLimits`: refused before it costs memory.
        case limit
    }

    var kind: Kind
    var byteOffset: Int64
    var message: String

    var description: String { "\(message) at byte \(byteOffset)" }
}
