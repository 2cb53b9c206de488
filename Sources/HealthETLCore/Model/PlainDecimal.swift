/// A decimal number in its plainest spelling (`72`, `-0.5`, `37.25`: digits with at most one point,
/// no exponent, at most 15 significant digits) read in one pass, exactly as `strtod` reads it.
///
/// Such a number is its digits as an integer (exact in a `Double` below 2^53) divided by a power
/// of ten up to 10^22 (exact too), and one IEEE division rounds correctly: the same value `strtod`
/// gives (Clinger's fast path). Every other spelling is the caller's to hand to `strtod`; this
/// only spares the common case its locale, its buffer and its arbitrary-precision path.
public enum PlainDecimal {
    /// The value, or `nil` when the bytes are not a plain decimal (not necessarily not a number).
    public static func value(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !sawPoint else { return nil }
                sawPoint = true
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit <= 9 else { return nil }
                sawDigit = true
                // Leading zeros are not significant.
                if mantissa != 0 || digit != 0 { significantDigits += 1 }
                guard significantDigits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(digit)
                if sawPoint { fractionDigits += 1 }
            }
            index += 1
        }
        guard sawDigit, fractionDigits <= 22 else { return nil }
        let magnitude = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -magnitude : magnitude
    }

    /// 10^0 to 10^22: every one exact in a `Double`.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]
}
