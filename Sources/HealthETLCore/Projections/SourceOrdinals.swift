/// Each sample's source as a small integer, in priority order (0 is the best source present).
///
/// The sweep compares sources millions of times on dense days; integers make that cheap, and
/// ranking each sample once keeps the string work out of the loop.
struct SourceOrdinals: Sendable {
    /// Ordinal of each sample, by index.
    let ordinals: [Int]
    /// Number of distinct sources.
    let count: Int

    init(of samples: [Sample], by priority: SourcePriority) {
        // Samples come in runs from one source: each run is ranked once, and only the runs' ranks
        // are hashed (ranking reads the device text, hashing the source name).
        var runRanks: [SourceRank] = []
        var runOfSample: [Int] = []
        runOfSample.reserveCapacity(samples.count)
        for index in samples.indices {
            if index == 0 || !Self.rankAlike(samples[index - 1], samples[index]) {
                runRanks.append(priority.rank(of: samples[index]))
            }
            runOfSample.append(runRanks.count - 1)
        }
        let distinct = Set(runRanks).sorted()
        let ordinalByRank = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0) })
        let ordinalOfRun = runRanks.map { ordinalByRank[$0]! }
        ordinals = runOfSample.map { ordinalOfRun[$0] }
        count = distinct.count
    }

    /// Whether two samples have the same rank whatever the priority: `SourcePriority.rank(of:)`
    /// reads only these. Names are compared byte for byte (`==` on strings outside ASCII
    /// normalizes them first); two spellings of one name merely rank twice.
    private static func rankAlike(_ one: Sample, _ other: Sample) -> Bool {
        one.flags.contains(.summarized) == other.flags.contains(.summarized)
            && one.isUserEntered == other.isUserEntered && ExactText.sameBytes(one.sourceName, other.sourceName)
            && ExactText.sameBytes(one.device, other.device)
    }
}
