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
        // Samples come in runs from one source, or interleave a few sources (a day read by start
        // time): a sample ranking alike with one of the last `remembered` distinct ones takes its
        // rank, so ranking (which reads the device text) and hashing (the source name) happen
        // about once per source rather than once per sample.
        var ranks: [SourceRank] = []
        // The key of each rank in `ranks`.
        var keys: [RankKey] = []
        var rankOfSample: [Int] = []
        rankOfSample.reserveCapacity(samples.count)
        var previous: RankKey?
        for index in samples.indices {
            let key = RankKey(samples, index)
            if let previous, key.isAlike(previous) {
                rankOfSample.append(rankOfSample[index - 1])
                continue
            }
            previous = key
            let recent = keys.indices.suffix(Self.remembered).reversed()
            if let known = recent.first(where: { keys[$0].isAlike(key) }) {
                rankOfSample.append(known)
            } else {
                ranks.append(priority.rank(of: samples[index]))
                keys.append(key)
                rankOfSample.append(ranks.count - 1)
            }
        }
        let distinct = Set(ranks).sorted()
        let ordinalByRank = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0) })
        let ordinalOfRank = ranks.map { ordinalByRank[$0]! }
        ordinals = rankOfSample.map { ordinalOfRank[$0] }
        count = distinct.count
    }

    /// Distinct sources a sample is compared with before it is ranked on its own: more than a
    /// day's sources usually are, few enough that comparing is cheaper than ranking.
    private static let remembered = 16

    /// What `SourcePriority.rank(of:)` reads of a sample, whatever the priority.
    private struct RankKey {
        let summarized: Bool
        let userEntered: Bool
        let sourceName: String
        let device: String?

        /// Read field by field: passing the sample to a function copied all of it (a retain of
        /// each text it holds), which was most of the calculators' instructions.
        init(_ samples: [Sample], _ index: Int) {
            summarized = samples[index].flags.contains(.summarized)
            userEntered = Sample.isUserEntered(samples[index].metadata)
            sourceName = samples[index].sourceName
            device = samples[index].device
        }

        /// Names are compared byte for byte (`==` on strings outside ASCII normalizes them
        /// first); two spellings of one name merely rank twice.
        func isAlike(_ other: RankKey) -> Bool {
            summarized == other.summarized && userEntered == other.userEntered
                && ExactText.sameBytes(sourceName, other.sourceName) && ExactText.sameBytes(device, other.device)
        }
    }
}
