/// Why `XMLStreamParser` stopped: what is wrong, where in the original input, and what to do.
public struct XMLStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem, for exit codes and reports.
    public enum Kind: Sendable, Equatable {
        /// Not well-formed XML: a mismatched tag, a broken attribute, a second DOCTYPE.
        case malformed
        /// Built to attack the reader: declares entities or points at an external DTD.
        case hostile
        /// The document stops before its root element is closed.
        case truncated
        /// Bytes that are not valid UTF-8, or characters XML does not allow.
        case encoding
    }

    public let kind: Kind
    /// What is wrong, in plain words, and what to do.
    public let message: String
    /// 1-based line in the original input (0 if unknown).
    public let line: Int
    /// 1-based column on that line (0 if unknown).
    public let column: Int
    /// Offset in the ORIGINAL input (before any byte filtering).
    public let byteOffset: Int64

    public init(kind: Kind, message: String, line: Int, column: Int, byteOffset: Int64) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    public var description: String {
        "\(message) (line \(line), column \(column), byte \(byteOffset))"
    }
}
