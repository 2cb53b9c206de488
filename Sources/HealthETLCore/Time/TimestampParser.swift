/// Parses the date-time spellings health exports use, byte by byte, without `DateFormatter`.
///
/// Accepted shapes (a missing zone means UTC, and the offset is then recorded as absent):
/// - Apple Health: `2024-03-01 06:30:00 -0800`
/// - ISO 8601: `2024-03-01T06:30:00Z`, `2024-03-01T06:30:00.125+01:00`
/// - 12-hour clocks (Health Auto Export): `2021-12-24 8:04:45 PM +0800`, also with U+202F
/// - the 2014 pre-release Apple format: `20140114084347-0800`
public enum TimestampParser {
    public static func parse(_ text: String) -> Timestamp? {
        var copy = text
        return copy.withUTF8 { parse(bytes: $0) }
    }

    public static func parse(_ text: Substring) -> Timestamp? {
        parse(String(text))
    }

    public static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var scanner = ByteScanner(bytes: bytes)
        return scanner.timestamp()
    }
}

/// A cursor over ASCII bytes with the small reads the timestamp grammar needs.
private struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func timestamp() -> Timestamp? {
        guard bytes.count >= 14 else { return nil }
        let compact = bytes[4] >= UInt8(ascii: "0") && bytes[4] <= UInt8(ascii: "9")
        guard let year = digits(4) else { return nil }
        if !compact, !consume(UInt8(ascii: "-")) { return nil }
        guard let month = digits(2) else { return nil }
        if !compact, !consume(UInt8(ascii: "-")) { return nil }
        guard let day = digits(2), let date = CivilDate(year: year, month: month, day: day) else {
            return nil
        }
        if !compact, !(consume(UInt8(ascii: " ")) || consume(UInt8(ascii: "T"))) { return nil }
        guard var hour = compact ? digits(2) : oneOrTwoDigits() else { return nil }
        if !compact, !consume(UInt8(ascii: ":")) { return nil }
        guard let minute = digits(2) else { return nil }
        if !compact, !consume(UInt8(ascii: ":")) { return nil }
        guard let second = digits(2), minute < 60, second < 61 else { return nil }
        let millis = fractionAsMilliseconds()
        skipSpaces()
        if let meridiem = meridiem() {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem ? 12 : 0)
            skipSpaces()
        }
        guard hour < 24, let offset = zone(), atEnd else { return nil }
        let localSeconds = date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        let utcMillis = (localSeconds - Int64(offset ?? 0)) * 1000 + Int64(millis)
        return Timestamp(instant: Instant(millisecondsSinceEpoch: utcMillis), utcOffsetSeconds: offset)
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for _ in 0..<count {
            let digit = Int(bytes[index]) - 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
            index += 1
        }
        return value
    }

    mutating func oneOrTwoDigits() -> Int? {
        guard let first = digits(1) else { return nil }
        if let byte = current, byte >= 48, byte <= 57 {
            index += 1
            return first * 10 + Int(byte) - 48
        }
        return first
    }

    /// `.5`, `,80` or `.123456` → milliseconds (extra digits are truncated).
    mutating func fractionAsMilliseconds() -> Int {
        guard current == UInt8(ascii: ".") || current == UInt8(ascii: ",") else { return 0 }
        index += 1
        var millis = 0
        var scale = 100
        while let byte = current, byte >= 48, byte <= 57 {
            millis += (Int(byte) - 48) * scale
            scale /= 10
            index += 1
        }
        return millis
    }

    /// Skips ASCII spaces and U+202F (narrow no-break space), which iOS puts before AM/PM.
    mutating func skipSpaces() {
        while let byte = current {
            if byte == 0x20 {
                index += 1
            } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                bytes[index + 2] == 0xAF
            {
                index += 3
            } else {
                return
            }
        }
    }

    /// `true` for PM, `false` for AM, `nil` when there is no meridiem.
    mutating func meridiem() -> Bool? {
        guard index + 1 < bytes.count, bytes[index + 1] | 0x20 == UInt8(ascii: "m") else {
            return nil
        }
        switch bytes[index] | 0x20 {
        case UInt8(ascii: "a"):
            index += 2
            return false
        case UInt8(ascii: "p"):
            index += 2
            return true
        default:
            return nil
        }
    }

    /// The zone designator. Returns `.some(nil)` for no zone, `.some(seconds)` for one, `nil` if malformed.
    mutating func zone() -> Int32?? {
        guard let byte = current else { return .some(nil) }
        if byte == UInt8(ascii: "Z") {
            index += 1
            return .some(0)
        }
        guard byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let hours = digits(2), hours <= 18 else { return nil }
        var minutes = 0
        if !atEnd {
            _ = consume(UInt8(ascii: ":"))
            guard let value = digits(2), value < 60 else { return nil }
            minutes = value
        }
        let seconds = Int32(hours * 3600 + minutes * 60)
        return .some(byte == UInt8(ascii: "-") ? -seconds : seconds)
    }
}
