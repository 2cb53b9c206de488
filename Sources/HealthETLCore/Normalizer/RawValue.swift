/// A record's value as the source gave it.
public enum RawValue: Hashable, Sendable {
    /// Text as written: a number for quantities, an enum spelling for categories.
    case text(String)
    /// A number from a binary source (a Health Connect column).
    case number(Double)
    /// No value (events, sessions).
    case absent

    /// The value as written, which is part of a sample's identity.
    public var asWritten: String? {
        switch self {
        case .text(let text): return text
        case .number(let number): return String(number)
        case .absent: return nil
        }
    }
}
