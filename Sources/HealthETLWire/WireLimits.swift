/// The sizes the collector API holds batches to: the collector enforces them, and the collector
/// sink forms its batches within them, so a batch it queues is never too large to be taken.
public enum WireLimits {
    /// The largest batch the collector takes, as JSON after decompression (a `serve` with a larger
    /// body limit takes more, never less).
    public static let decodedBatchBytes = 128 << 20
}
