/// Budgets that stop a hostile archive from exhausting time, memory or the consumer's disk.
public struct ZipLimits: Sendable {
    /// The largest uncompressed size accepted for one entry.
    public var maxEntryBytes: UInt64
    /// The largest accepted uncompressed/compressed ratio, checked once an entry's output passes
    /// `ratioGraceBytes` (small files legitimately compress very well).
    public var maxCompressionRatio: UInt64
    /// Output an entry may produce before its compression ratio is checked.
    public var ratioGraceBytes: UInt64
    /// The largest number of central directory records accepted.
    public var maxEntries: Int

    public init(
        maxEntryBytes: UInt64 = 64 << 30, maxCompressionRatio: UInt64 = 250,
        ratioGraceBytes: UInt64 = 16 << 20, maxEntries: Int = 1_000_000
    ) {
        self.maxEntryBytes = maxEntryBytes
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioGraceBytes = ratioGraceBytes
        self.maxEntries = maxEntries
    }

    /// Whether `produced` output bytes from `consumed` compressed bytes breaks the ratio budget.
    func exceedsRatio(produced: UInt64, consumed: UInt64) -> Bool {
        produced > ratioGraceBytes && produced / max(consumed, 1) > maxCompressionRatio
    }
}
