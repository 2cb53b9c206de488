import HealthETLCore

/// Hands a Health Connect read's records on in lanes, with a checkpoint at the first row boundary
/// after every so many records and at the end of each part, so what is committed is always whole
/// rows, and what waits for a checkpoint stays small (a heart-rate row holds hundreds of points).
struct HealthConnectFeed<Handler: SourceEventHandler> {
    var handler: Handler
    private(set) var warnings: [String: Int] = [:]
    private let hotSince: Instant
    private let every: Int
    private let stream: String
    private var part: HealthConnectPart?
    private var row: Int64?
    private var recordsSinceCheckpoint = 0

    init(handler: Handler, hotSince: Instant, every: Int, stream: String) {
        self.handler = handler
        self.hotSince = hotSince
        self.every = every
        self.stream = stream
    }

    mutating func begin(_ part: HealthConnectPart) {
        self.part = part
        row = nil
        recordsSinceCheckpoint = 0
    }

    mutating func record(_ record: RawRecord, row: Int64) throws {
        try enter(row)
        recordsSinceCheckpoint += 1
        if let uuid = record.metadata.first?.value, uuid.count != 32 {
            // Health Connect's uuids are 16 bytes; the record is kept (its identity is its content).
            warnings["uuid_not_16_bytes", default: 0] += 1
        }
        try handler.receive(.record(record, lane: Lane.of(ending: record.end.timestamp?.instant, hotSince: hotSince)))
    }

    mutating func workout(_ workout: Workout, row: Int64) throws {
        try enter(row)
        recordsSinceCheckpoint += 1
        try handler.receive(.workout(workout, lane: Lane.of(ending: workout.end, hotSince: hotSince)))
    }

    /// Everything of the part is handed on: a checkpoint at its end.
    mutating func finishPart() throws {
        guard let part else { return }
        try checkpoint(part.end)
    }

    /// A new row starts: the rows before it are whole, and due for a checkpoint once `every`
    /// records wait for one (rows beyond the part's place on the line wait for its end).
    private mutating func enter(_ next: Int64) throws {
        guard next != row else { return }
        if let row, let position = part?.position(after: row), recordsSinceCheckpoint >= every {
            try checkpoint(position)
            recordsSinceCheckpoint = 0
        }
        row = next
    }

    private mutating func checkpoint(_ position: Int64) throws {
        try handler.receive(.checkpoint(StreamCursor(stream: stream, lane: .cold, position: position)))
    }
}
