import Foundation
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
            // RFC 9110's optional whitespace: spaces and tabs.
            var tag = part.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))[...]
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag[...]
        }
    }

    /// FNV-1a over the scope's text, 16 hex digits.
    private static func scopeDigest(_ key: ChangeKey) -> String {
        var hash = FNV1a()
        hash.add(key.scopeText.utf8)
        return hash.hex
    }
}
