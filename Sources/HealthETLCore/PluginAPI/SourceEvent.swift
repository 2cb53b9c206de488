/// What a source adapter hands the pipeline, in stream order.
public enum SourceEvent: Sendable {
    /// The stream the events belong to, before any of them: its name, its "now" (an export's
    /// date, a live stream's clock), whether it is a full snapshot whose absences mean deletions,
    /// and the position it ends at when known (an export's size in bytes), for progress; and
    /// whether its positions are bytes or rows (a database's row ids).
    case streamStarted(
        stream: String, now: Instant, isFullSnapshot: Bool, endPosition: Int64?, positions: PositionKind = .bytes)
    /// The adapter resumed: it passed over everything before `position`, which the stream's
    /// cursors say is committed, and reads on from there.
    case resumed(at: Int64)
    /// A record read from the source, in the lane the adapter chose for it.
    case record(RawRecord, lane: Lane)
    /// A correlation (a blood-pressure or food panel) itself, without its components.
    case correlation(RawRecord, lane: Lane)
    /// A record nested in a correlation (stored once: exports repeat it at top level).
    case correlationComponent(RawRecord, lane: Lane)
    /// A record that is not one of the source's own record list, derived from another file
    /// (an ECG recording's CSV), counted apart from `.record`s.
    case auxiliaryRecord(RawRecord, lane: Lane)
    /// A sample deleted at the source (change lane).
    case deletion(Tombstone)
    case workout(Workout, lane: Lane)
    case activitySummary(ActivitySummary)
    case document(ExportDocument)
    /// The source's own order of sources per metric (a phone's app priority), metric id → source
    /// names, best first: the projections rank those sources so, as the source itself does.
    case sourcePriority([String: [String]])
    /// Everything emitted before this event is covered by `cursor`: the pipeline may commit it.
    case checkpoint(StreamCursor)
}
