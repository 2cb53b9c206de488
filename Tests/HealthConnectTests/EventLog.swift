import HealthETLCore

/// Every event an adapter hands on, kept.
struct EventLog: SourceEventHandler {
    var events: [SourceEvent] = []

    mutating func receive(_ event: SourceEvent) throws { events.append(event) }

    var records: [RawRecord] {
        events.compactMap { if case .record(let record, _) = $0 { record } else { nil } }
    }
}
