/// Hexadecimal digits both ways, for the few hot paths that read or write them byte by byte
/// (content ids in uploads and exports, `\u` escapes in the wire format).
public enum HexDigits {
    /// The low `digits` hex digits of `value`, lowercase, written at `start`.
    public static func write(
        _ value: UInt64, digits: Int, into text: UnsafeMutableBufferPointer<UInt8>, at start: Int
    ) {
        for position in 0..<digits {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64((digits - 1 - position) * 4)) & 0xF
            text[start + position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
    }

    /// The low `digits` hex digits of `value` (at most 16), lowercase, as text.
    public static func text(_ value: UInt64, digits: Int) -> String {
        String(
            unsafeUninitializedCapacity: digits,
            initializingUTF8With: { text in
                write(value, digits: digits, into: text, at: 0)
                return digits
            })
    }

    /// The value of a hexadecimal digit, either case; nil for any other byte.
    public static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
