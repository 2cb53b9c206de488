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
        let compared = other.utf8.withContiguousStorageIfAvailable { sameBytes(one, $0) }
        return compared ?? one.utf8.elementsEqual(other.utf8)
    }

    /// Whether `string`'s UTF-8 is exactly `bytes`. Native strings hold their bytes contiguously:
    /// one memcmp (the per-byte iterator was the collector's busiest Swift code).
    package static func sameBytes(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard string.utf8.count == bytes.count else { return false }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return string.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, base, bytes.count) == 0 }
            ?? string.utf8.elementsEqual(bytes)
    }
}
