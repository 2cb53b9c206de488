/// The part of one sample that falls on one local day of the sample's zone.
///
/// Cumulative amounts and coverage are shared out between days by these pieces, so a sample that
/// spans midnight counts on both sides in proportion to its time there.
struct DayPiece: Sendable {
    /// Index of the sample in the caller's array.
    var sampleIndex: Int
    /// The sample's id, which orders pieces of equal spans.
    var sampleID: ContentID
    var day: CivilDate
    /// Milliseconds since the epoch, clipped to the day; empty for a zero-length sample.
    var span: Range<Int64>

    /// Cuts a sample at each local midnight it spans, handing each piece to `body` in order (no
    /// array per sample: most samples are one piece). A zero-length sample (or one that ends
    /// before it starts) is one empty piece on the day of its start.
    static func cut(
        _ sample: SampleSpan, at sampleIndex: Int, in zone: LocalZone, within days: ClosedRange<CivilDate>? = nil,
        _ body: (DayPiece) -> Void
    ) {
        var cursor = sample.start
        if let days {
            // Cut only the days asked for: the cost of a long sample is then the range's, not
            // its span's. This instant is at or before the first day's local midnight in every
            // zone, so the pieces from it on are cut exactly as from the sample's start.
            let earliest = Instant(
                millisecondsSinceEpoch: days.lowerBound.daysSinceEpoch * LocalZone.millisecondsPerDay
                    - LocalZone.widestOffsetMilliseconds)
            cursor = max(cursor, earliest)
            // Ended before the range: nothing of it is on the days asked for.
            if cursor > sample.start, cursor >= sample.end { return }
        }
        repeat {
            let piece = piece(of: sample, from: cursor, at: sampleIndex, in: zone)
            if let days, piece.day > days.upperBound { break }
            body(piece)
            cursor = Instant(millisecondsSinceEpoch: piece.span.upperBound)
        } while cursor < sample.end
    }

    /// The piece on the day the sample starts.
    static func firstPiece(of sample: SampleSpan, at sampleIndex: Int, in zone: LocalZone) -> DayPiece {
        piece(of: sample, from: sample.start, at: sampleIndex, in: zone)
    }

    private static func piece(
        of sample: SampleSpan, from start: Instant, at sampleIndex: Int, in zone: LocalZone
    ) -> DayPiece {
        let end = max(start, min(sample.end, zone.endOfDay(containing: start)))
        return DayPiece(
            sampleIndex: sampleIndex, sampleID: sample.id, day: zone.localDay(of: start),
            span: start.millisecondsSinceEpoch..<end.millisecondsSinceEpoch)
    }

    /// What cutting reads of a sample, read field by field: passing the sample itself copied all of
    /// it (a retain of each text it holds).
    struct SampleSpan {
        let id: ContentID
        let start: Instant
        let end: Instant

        init(_ samples: [Sample], _ index: Int) {
            id = samples[index].id
            start = samples[index].start
            end = samples[index].end
        }
    }
}
