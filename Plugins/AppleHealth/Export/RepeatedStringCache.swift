import Foundation

/// Reuses the `String` for an attribute value that repeats from one element to the next.
///
/// Exports list records grouped by type and source, so type, source, unit and device strings
/// nearly always equal the previous record's: comparing bytes is far cheaper than allocating.
///
/// A string is reused `reusesPerString` times, then made again: the writer thread copies and
/// frees the records of earlier batches while this thread makes new ones, and one string shared
/// by both had its reference count contended by the two cores (a fifth of an import's retains
/// and releases cost several times the rest).
struct RepeatedStringCache {
    /// Fewer than a batch's records (5,000), so a batch's records share few strings with the next.
    static let reusesPerString = 1_000

    private var lastBytes: [UInt8] = []
    private var lastString = ""
    private var reuses = 0

    mutating func string(for value: XMLBytes) -> String {
        let bytes = value.bytes
        if bytes.count == lastBytes.count, reuses < Self.reusesPerString,
            bytes.isEmpty
                || lastBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            reuses += 1
            return lastString
        }
        reuses = 0
        lastBytes = Array(bytes)
        lastString = value.string
        return lastString
    }
}
