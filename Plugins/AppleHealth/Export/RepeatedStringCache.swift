import HealthETLCore

/// Reuses the `String` for an attribute value that repeats among the last few elements.
///
/// Exports list records grouped by type, and within a type the sources take turns (a watch's
/// and a phone's heart rates, a run of each): the last few source, version, device and unit
/// strings nearly always hold the next record's. Comparing bytes is far cheaper than making a
/// string (and its byte copy) at every turn: 140,000 times in a 250,000-record export when only
/// the last value was kept.
///
/// A string is reused `reusesPerString` times, then made again: the writer thread copies and
/// frees the records of earlier batches while this thread makes new ones, and one string shared
/// by both had its reference count contended by the two cores (a fifth of an import's retains
/// and releases cost several times the rest).
struct RepeatedStringCache {
    /// Fewer than a batch's records (5,000), so a batch's records share few strings with the next.
    static let reusesPerString = 1_000
    /// Values remembered: a type's records rarely have more sources (or devices) than this.
    static let capacity = 4

    private struct Entry {
        var string: String
        var reuses: Int
    }

    /// The values seen last: a new one first, and each hit moves one a place forward.
    private var entries: [Entry] = []

    mutating func string(for value: XMLBytes) -> String {
        let bytes = value.bytes
        if let index = entries.firstIndex(where: { ExactText.sameBytes($0.string, bytes) }) {
            if entries[index].reuses < Self.reusesPerString {
                entries[index].reuses += 1
            } else {
                entries[index] = Entry(string: value.string, reuses: 0)
            }
            // Toward the front, where the next record's value is looked for first.
            let forward = max(index - 1, 0)
            entries.swapAt(index, forward)
            return entries[forward].string
        }
        // In at the front, out at the back: a new value starts a run of its own.
        if entries.count == Self.capacity { entries.removeLast() }
        entries.insert(Entry(string: value.string, reuses: 0), at: 0)
        return entries[0].string
    }
}
