/// Decodes the references libxml2 leaves in attribute values when entities are not substituted.
///
/// Without `XML_PARSE_NOENT` libxml2 hands SAX2 an `&amp;` as `&#38;` (so that a tree builder
/// could re-parse it); every other reference arrives already decoded. The decoder turns `&#NN;`,
/// `&#xHH;` and the five predefined entities into UTF-8. Anything else starting with `&` is
/// copied as written: libxml2 has rejected undeclared entities before a value gets here.
enum XMLReferenceDecoder {
    /// Writes the decoded form of `raw` to `output` and returns the number of bytes written.
    ///
    /// A reference is never shorter than the UTF-8 it stands for, so `output` needs room for
    /// `raw.count` bytes at most.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == ampersand, let (scalar, length) = reference(in: raw, at: index) {
                for unit in UTF8.encode(scalar)! {
                    output[written] = unit
                    written += 1
                }
                index += length
            } else {
                output[written] = byte
                written += 1
                index += 1
            }
        }
        return written
    }

    private static let ampersand = UInt8(ascii: "&")
    private static let semicolon = UInt8(ascii: ";")

    /// The scalar of the reference starting at `start` (an `&`) and the reference's length in bytes.
    private static func reference(in raw: UnsafeBufferPointer<UInt8>, at start: Int) -> (Unicode.Scalar, Int)? {
        // The longest reference worth looking at is `&#x10FFFF;` or `&#1114111;` (10 bytes).
        let limit = min(raw.count, start + 12)
        var end = start + 1
        while end < limit, raw[end] != semicolon { end += 1 }
        guard end < limit else { return nil }
        let body = UnsafeBufferPointer(rebasing: raw[(start + 1)..<end])
        let length = end - start + 1
        if body.first == UInt8(ascii: "#") {
            guard let value = numericValue(UnsafeBufferPointer(rebasing: body.dropFirst())),
                value != 0, let scalar = Unicode.Scalar(value)
            else { return nil }
            return (scalar, length)
        }
        let name = XMLBytes(body)
        if name == "amp" { return ("&", length) }
        if name == "lt" { return ("<", length) }
        if name == "gt" { return (">", length) }
        if name == "quot" { return ("\"", length) }
        if name == "apos" { return ("'", length) }
        return nil
    }

    /// The value of `NN` or `xHH` (the part of a character reference after `#`).
    private static func numericValue(_ digits: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        var rest = digits[...]
        let radix: UInt32
        if rest.first == UInt8(ascii: "x") {
            radix = 16
            rest = rest.dropFirst()
        } else {
            radix = 10
        }
        guard !rest.isEmpty else { return nil }
        for byte in rest {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
                digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
                digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value * radix + digit
            if value > 0x10FFFF { return nil }
        }
        return value
    }
}
