/// A live source: one stream whose data arrives over time in three lanes, each resumable from
/// its own cursor — `hot` (what just happened), `cold` (history, backfilled in bounded chunks)
/// and `change` (deletions and edits of earlier samples).
///
/// Every answer is a pure function of the lane, the cursor and the clock, so a run resumed
/// from committed cursors produces exactly what an uninterrupted run would have.
public protocol LaneSource: Sendable {
    /// The source stream's name in the store (`synthetic:seed-1:person-1`).
    var streamName: String { get }
    /// Where a lane starts before anything was committed.
    func initialCursor(_ lane: Lane) -> Int64
    /// What the lane has after `cursor` by the simulated or real time `now`, at most about
    /// `limit` records (a batch never splits what shares one cursor position).
    func next(_ lane: Lane, after cursor: Int64, now: Instant, limit: Int) -> LaneStep
}

/// One answer of a `LaneSource`.
public enum LaneStep: Sendable {
    /// Events to commit together with the lane's new cursor.
    case batch([SourceEvent], cursor: Int64)
    /// Nothing more until the clock reaches this instant.
    case waiting(until: Instant)
    /// The lane has nothing more, ever (history fully backfilled).
    case finished
}
