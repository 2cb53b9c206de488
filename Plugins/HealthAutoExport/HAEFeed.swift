import HealthETLCore

/// Hands items on as source events in lanes (hot when they end within the hot window), with a
/// checkpoint at the item boundary after every so many records, so what waits for a commit
/// stays small however long a file is.
struct HAEFeed<Handler: SourceEventHandler> {
    var handler: Handler
    private let hotSince: Instant
    private let every: Int
    private let stream: String
    private var recordsSinceCheckpoint = 0

    init(handler: Handler, hotSince: Instant, every: Int, stream: String) {
        self.handler = handler
        self.hotSince = hotSince
        self.every = every
        self.stream = stream
    }

    /// Hands on one item; `position` is where the input stands after it.
    mutating func take(_ item: HAEItem, position: Int64) throws {
        let lane = Lane.of(ending: item.end, hotSince: hotSince)
        switch item {
        case .record(let record): try handler.receive(.record(record, lane: lane))
        case .correlation, .workout:
            for event in item.events(in: lane) { try handler.receive(event) }
        }
        recordsSinceCheckpoint += 1
        if recordsSinceCheckpoint >= every { try checkpoint(position) }
    }

    mutating func checkpoint(_ position: Int64) throws {
        recordsSinceCheckpoint = 0
        try handler.receive(.checkpoint(StreamCursor(stream: stream, lane: .cold, position: position)))
    }
}
