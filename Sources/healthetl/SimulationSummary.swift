import HealthETLCore
import HealthETLPipeline

/// What `simulate` prints: per lane counts, the cursors, and how busy the writer was.
struct SimulationSummary: Encodable {
    struct Cursor: Encodable {
        let stream: String
        let lane: String
        let position: Int64
    }

    let streams: [String]
    let lanes: [String: IngestTally]
    let cursors: [Cursor]
    let simulatedThrough: String
    let interrupted: Bool
    let elapsedSeconds: Double
    let samplesPerSecond: Double
    /// Fraction of the run the store writer was committing.
    let writerBusy: Double

    init(_ summary: LiveIngestSummary) {
        streams = summary.streams
        lanes = Dictionary(uniqueKeysWithValues: Lane.allCases.map { ($0.rawValue, summary.tally($0)) })
        cursors = summary.cursors.map { Cursor(stream: $0.stream, lane: $0.lane.rawValue, position: $0.position) }
        simulatedThrough = summary.simulatedThrough.iso8601(utcOffsetSeconds: 0)
        interrupted = summary.interrupted
        elapsedSeconds = (summary.elapsedSeconds * 1000).rounded() / 1000
        let records = Lane.allCases.reduce(0) { $0 + summary.tally($1).records }
        samplesPerSecond = summary.elapsedSeconds > 0 ? (Double(records) / summary.elapsedSeconds).rounded() : 0
        writerBusy =
            summary.elapsedSeconds > 0
            ? ((summary.writerBusySeconds / summary.elapsedSeconds) * 100).rounded() / 100 : 0
    }

    var rendered: String {
        var table = TextTable(
            "lane", "records", "accepted", "flagged", "quarantined", "duplicates", "deleted earlier", "tombstones",
            "workouts")
        for lane in Lane.allCases {
            let t = lanes[lane.rawValue] ?? IngestTally()
            table.add(
                lane.rawValue, "\(t.records)", "\(t.accepted)", "\(t.flagged)", "\(t.quarantined)", "\(t.duplicates)",
                "\(t.deletedEarlier)", "\(t.tombstones)", "\(t.workouts)")
        }
        var cursorTable = TextTable("stream", "lane", "cursor")
        for cursor in cursors { cursorTable.add(cursor.stream, cursor.lane, "\(cursor.position)") }
        let state = interrupted ? "stopped on request at" : "simulated through"
        return table.rendered + "\n\n" + cursorTable.rendered + "\n\n"
            + "\(state) \(simulatedThrough) in \(elapsedSeconds) s (\(Int(samplesPerSecond)) records/s, writer busy \(Int(writerBusy * 100)) %)"
    }

    private enum CodingKeys: String, CodingKey {
        case streams, lanes, cursors, interrupted
        case simulatedThrough = "simulated_through"
        case elapsedSeconds = "elapsed_s"
        case samplesPerSecond = "records_per_s"
        case writerBusy = "writer_busy"
    }
}
