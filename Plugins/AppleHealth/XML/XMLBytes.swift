import Glibc

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
        rhs.withUTF8Buffer { lhs.hasBytes(of: $0) }
    }

    /// Whether `other` holds the same bytes.
    public func hasSameBytes(as other: XMLBytes) -> Bool {
        hasBytes(of: other.bytes)
    }

    private func hasBytes(of other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard other.count == bytes.count else { return false }
        return other.isEmpty || memcmp(other.baseAddress!, bytes.baseAddress!, other.count) == 0
    }
}
