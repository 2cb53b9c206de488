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

    /// Cuts a sample at each local midnight it spans. A zero-length sample (or one that ends before
    /// it starts) is one empty piece on the day of its start.
    static func pieces(of sample: Sample, at sampleIndex: Int, in zone: LocalZone) -> [DayPiece] {
        var pieces: [DayPiece] = []
        var cursor = sample.start
        repeat {
            let piece = piece(of: sample, from: cursor, at: sampleIndex, in: zone)
            pieces.append(piece)
            cursor = Instant(millisecondsSinceEpoch: piece.span.upperBound)
        } while cursor < sample.end
        return pieces
    }

    /// The piece on the day the sample starts.
    static func firstPiece(of sample: Sample, at sampleIndex: Int, in zone: LocalZone) -> DayPiece {
        piece(of: sample, from: sample.start, at: sampleIndex, in: zone)
    }

    private static func piece(
        of sample: Sample, from start: Instant, at sampleIndex: Int, in zone: LocalZone
    ) -> DayPiece {
        let end = max(start, min(sample.end, zone.endOfDay(containing: start)))
        return DayPiece(
            sampleIndex: sampleIndex, sampleID: sample.id, day: zone.localDay(of: start),
            span: start.millisecondsSinceEpoch..<end.millisecondsSinceEpoch)
    }
}
