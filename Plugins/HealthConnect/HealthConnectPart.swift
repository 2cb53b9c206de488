/// One stretch of a Health Connect read: a record table, a child table read by parent, or the
/// exercise sessions as workouts. Its rows sit at `base + row id` on the stream's cursor line,
/// so a cursor names a part and a row within it.
struct HealthConnectPart {
    enum Reader {
        case table(HealthConnectTableReader)
        case children(HealthConnectChildTableReader)
        case exercise(HealthConnectExerciseReader)
    }

    let name: String
    let reader: Reader
    /// Where the part starts on the cursor line.
    let base: Int64
    /// The largest row id of the table whose rows position it (the parent's, for children), up
    /// to `HealthConnectReadPlan.largestPlacedRow`: rows above it come last and have no place of
    /// their own, so they are committed with the part's end.
    let lastRow: Int64

    /// The plan places parts so that this does not overflow.
    var end: Int64 { base + lastRow }

    /// Where the line may be committed once `row` is whole, or `nil` from `lastRow` on: `end`
    /// says the part is whole, which it is only after the rows beyond `lastRow` (so its
    /// `finishPart` checkpoint alone commits it).
    func position(after row: Int64) -> Int64? {
        row > 0 && row < lastRow ? base + row : nil
    }

    /// The row to read after when the stream's committed cursor is `cursor`; `nil` when the
    /// part is committed whole.
    func resumeRow(at cursor: Int64) -> Int64? {
        if lastRow > 0, cursor >= end { return nil }
        return max(0, cursor - base)
    }
}
