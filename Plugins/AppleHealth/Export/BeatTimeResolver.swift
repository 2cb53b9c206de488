import HealthETLCore

/// Turns an HRV beat's locale-formatted time of day (`6:14:48.94 PM`, `00:20:37,80`) into an
/// instant, taking the date from the parent record.
///
/// The beat list carries no date and is written in the export's offset, so the time is placed on
/// the record's local day and then moved by a whole hour or day if that lands it closer to the
/// record's start (the DST hour and midnight both shift it).
enum BeatTimeResolver {
    static func instant(of text: XMLBytes, near start: Instant, utcOffsetSeconds: Int32?) -> Instant? {
        guard let secondsOfDay = secondsOfDay(text.bytes) else { return nil }
        let offset = Int64(utcOffsetSeconds ?? 0) * 1000
        let localDay = (start.millisecondsSinceEpoch + offset).floorDivided(by: 86_400_000).quotient
        let guess = localDay * 86_400_000 + Int64(secondsOfDay * 1000) - offset
        var best = guess
        for shift in shifts
        where abs(guess + shift - start.millisecondsSinceEpoch) < abs(best - start.millisecondsSinceEpoch) {
            best = guess + shift
        }
        return Instant(millisecondsSinceEpoch: best)
    }

    /// The hour and day the guess may be off by, tried in this order after the guess itself (a
    /// tie keeps the earlier); made once, not for every beat.
    private static let shifts: [Int64] = [3_600_000, -3_600_000, 86_400_000, -86_400_000]

    /// `H:mm:ss[.,]ff [AM|PM]` → seconds since midnight.
    static func secondsOfDay(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var hoursField = 0.0
        var minutesField = 0.0
        var secondsField = 0.0
        var field = 0
        var fraction = 0.0
        var scale = 0.0
        var sawDigit = false
        var meridiem: UInt8?
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                if scale > 0 {
                    fraction += Double(byte - 48) * scale
                    scale /= 10
                } else {
                    let digit = Double(byte - 48)
                    switch field {
                    case 0: hoursField = hoursField * 10 + digit
                    case 1: minutesField = minutesField * 10 + digit
                    default: secondsField = secondsField * 10 + digit
                    }
                }
            case UInt8(ascii: ":"):
                guard field < 2, scale == 0 else { return nil }
                field += 1
            case UInt8(ascii: "."), UInt8(ascii: ","):
                guard field == 2 else { return nil }
                scale = 0.1
            case UInt8(ascii: "A"), UInt8(ascii: "a"), UInt8(ascii: "P"), UInt8(ascii: "p"):
                meridiem = byte | 0x20
            default:
                continue
            }
        }
        guard sawDigit, field == 2, minutesField < 60, secondsField < 61 else { return nil }
        var hours = hoursField
        if let meridiem {
            guard hours >= 1, hours <= 12 else { return nil }
            hours = hours.truncatingRemainder(dividingBy: 12) + (meridiem == UInt8(ascii: "p") ? 12 : 0)
        }
        guard hours < 24 else { return nil }
        return hours * 3600 + minutesField * 60 + secondsField + fraction
    }
}
