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
        let ranks = samples.map(priority.rank(of:))
        let distinct = Set(ranks).sorted()
        let ordinalByRank = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0) })
        ordinals = ranks.map { ordinalByRank[$0]! }
        count = distinct.count
    }
}
