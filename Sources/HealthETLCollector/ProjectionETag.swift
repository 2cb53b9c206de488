import HealthETLCore

/// A projection answer's strong ETag: the code's generation, the newest feed sequence that changed
/// what the answer reads, and a digest of the scope (metric and days).
enum ProjectionETag {
    static func make(generation: String, version: Int64, key: ChangeKey) -> String {
        "\"\(generation)-\(version)-\(scopeDigest(key))\""
    }

    /// `If-None-Match`: a list of tags, or `*`; compared weakly, as RFC 9110 asks for it.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { part in
            var tag = part.trimmingWhitespace()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag[...]
        }
    }

    /// FNV-1a over the scope's text, 16 hex digits.
    private static func scopeDigest(_ key: ChangeKey) -> String {
        let text: String
        switch key {
        case .daily(let metric, let days): text = "daily|\(metric)|\(days.lowerBound)|\(days.upperBound)"
        case .sleep(let nights): text = "sleep|\(nights.lowerBound)|\(nights.upperBound)"
        case .insights(let days): text = "insights|\(days.lowerBound)|\(days.upperBound)"
        case .everything: text = "all"
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
