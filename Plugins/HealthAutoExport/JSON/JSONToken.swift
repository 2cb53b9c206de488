/// One token of a JSON text, as `JSONTokenizer` hands them on in document order.
enum JSONToken: Equatable, Sendable {
    case objectStart
    case objectEnd
    case arrayStart
    case arrayEnd
    /// An object member's name.
    case key(String)
    case string(String)
    /// A number as written (JSON's grammar checked), so a caller converts it as it needs.
    case number(String)
    case bool(Bool)
    case null
}
