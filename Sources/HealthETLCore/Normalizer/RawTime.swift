/// A record's date as the source gave it: text to parse, or an instant a binary source already had.
public enum RawTime: Hashable, Sendable {
    case text(String)
    case timestamp(Timestamp)
    /// Seconds a device counted from its own reference (a FIT time below 0x10000000, counted
    /// from power-up), which dates nothing without the device's clock.
    case deviceRelative(UInt32)

    /// The parsed timestamp, or `nil` if the text is not a date-time healthetl understands.
    public var timestamp: Timestamp? {
        switch self {
        case .text(let text): return TimestampParser.parse(text)
        case .timestamp(let timestamp): return timestamp
        case .deviceRelative: return nil
        }
    }

    /// The date as written, for a quarantined record's raw form.
    public var asWritten: String {
        switch self {
        case .text(let text): return text
        case .timestamp(let timestamp):
            return timestamp.instant.iso8601(utcOffsetSeconds: timestamp.utcOffsetSeconds ?? 0)
        case .deviceRelative(let seconds): return "device-relative \(seconds) s"
        }
    }
}
