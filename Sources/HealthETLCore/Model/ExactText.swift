#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A string compared and hashed by its UTF-8 bytes. `String`'s `==` compares canonical
/// equivalence, so "Café" spelled precomposed and decomposed are equal strings; a store that
/// keeps what the source wrote must keep them apart.
package struct ExactText: Hashable, Sendable {
    package let text: String

    package init(_ text: String) { self.text = text }

    package static func == (one: ExactText, other: ExactText) -> Bool {
        sameBytes(one.text, other.text)
    }

    package func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil { for byte in text.utf8 { hasher.combine(byte) } }
    }

    /// Whether two optional strings hold the same bytes (both nil counts as the same).
    package static func sameBytes(_ one: String?, _ other: String?) -> Bool {
        guard let one, let other else { return one == nil && other == nil }
        guard one.utf8.count == other.utf8.count else { return false }
        // Native strings hold their bytes contiguously: one memcmp (the per-byte iterator was
        // the collector's busiest Swift code).
        let compared = one.utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.isEmpty || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0
            }
        }
        return (compared ?? nil) ?? one.utf8.elementsEqual(other.utf8)
    }
}
