import HealthETLCore

/// What a live run did: per lane, and where every stream's cursors ended.
public struct LiveIngestSummary: Sendable {
    public var streams: [String] = []
    public var lanes: [Lane: IngestTally] = [:]
    public var cursors: [StreamCursor] = []
    /// The simulated time the run had reached.
    public var simulatedThrough: Instant
    /// Whether a stop was asked for before every lane was done.
    public var interrupted = false
    public var elapsedSeconds = 0.0
    /// Of the elapsed time, how much the store writer spent committing: near 1 means loading
    /// was limited by the writer, not by the sources.
    public var writerBusySeconds = 0.0

    public init(simulatedThrough: Instant) {
        self.simulatedThrough = simulatedThrough
    }

    public func tally(_ lane: Lane) -> IngestTally { lanes[lane] ?? IngestTally() }
}
