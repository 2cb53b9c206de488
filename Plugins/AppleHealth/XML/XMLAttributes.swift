/// The attributes of one start tag, in document order; values with character references already decoded.
///
/// Like `XMLBytes`, valid only during the `startElement` call that received it.
public struct XMLAttributes {
    /// One attribute: its local name and its (decoded) value, both pointing into parser-owned memory.
    struct Span {
        var name: UnsafeBufferPointer<UInt8>
        var value: UnsafeBufferPointer<UInt8>
        /// Whether `value` still holds a reference (`&…;`) to decode.
        var hasReference: Bool
    }

    private let spans: UnsafeBufferPointer<Span>

    init(_ spans: UnsafeBufferPointer<Span>) {
        self.spans = spans
    }

    /// The number of attributes on the tag.
    public var count: Int { spans.count }

    /// The value of the attribute with this local name, or nil; a linear scan without allocation.
    public subscript(name: StaticString) -> XMLBytes? {
        for span in spans where XMLBytes(span.name) == name {
            return XMLBytes(span.value)
        }
        return nil
    }

    /// The value of the attribute with this local name as a `String`, or nil.
    public func string(_ name: StaticString) -> String? {
        self[name]?.string
    }

    /// Calls `body` with each attribute's name and value, in document order.
    public func forEach(_ body: (XMLBytes, XMLBytes) throws -> Void) rethrows {
        for span in spans {
            try body(XMLBytes(span.name), XMLBytes(span.value))
        }
    }
}
