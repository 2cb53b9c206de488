import HealthETLCore

/// Reads a `Retry-After` header as seconds to wait (RFC 9110 §10.2.3).
enum RetryAfter {
    /// A longer wait is taken as a misconfigured server rather than stalling the queue for it.
    static let maximumSeconds: Double = 86_400

    /// Delta-seconds or an HTTP-date, as seconds from `now` (0 for a date in the past, at most
    /// a day); nil when absent or unreadable.
    static func seconds(_ value: String?, now: Instant) -> Double? {
        guard let text = value?.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " "),
            !text.isEmpty
        else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Too many digits for Int64 is still "a long time".
            return min(Double(Int64(text) ?? Int64.max), maximumSeconds)
        }
        guard let date = HTTPDate.parse(text, now: now) else { return nil }
        return min(max(0, now.seconds(until: date)), maximumSeconds)
    }
}
