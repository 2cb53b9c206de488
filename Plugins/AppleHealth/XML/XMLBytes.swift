/// A name or attribute value as bytes inside libxml2's buffers; valid only during the callback.
///
/// Copy what you need to keep (`string`, or `Array(bytes)`) before the callback returns: the
/// memory belongs to the parser and is reused for the next element.
public struct XMLBytes {
    /// The UTF-8 bytes, without a terminating NUL.
    public let bytes: UnsafeBufferPointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The bytes decoded as UTF-8 (libxml2 has already checked that they are valid).
    public var string: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the bytes equal the literal's UTF-8, compared in place without allocating.
    public static func == (lhs: XMLBytes, rhs: StaticString) -> Bool {
        rhs.withUTF8Buffer { literal in
            guard literal.count == lhs.bytes.count else { return false }
            for index in 0..<literal.count where literal[index] != lhs.bytes[index] {
                return false
            }
            return true
        }
    }
}
