import Foundation

/// Reuses the `String` for an attribute value that repeats from one element to the next.
///
/// Exports list records grouped by type and source, so type, source, unit and device strings
/// nearly always equal the previous record's: comparing bytes is far cheaper than allocating.
struct RepeatedStringCache {
    private var lastBytes: [UInt8] = []
    private var lastString = ""

    mutating func string(for value: XMLBytes) -> String {
        let bytes = value.bytes
        if bytes.count == lastBytes.count,
            bytes.isEmpty
                || lastBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            return lastString
        }
        lastBytes = Array(bytes)
        lastString = value.string
        return lastString
    }
}
