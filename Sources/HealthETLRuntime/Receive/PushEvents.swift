import HealthETLCore
import HealthETLPipeline

/// The events the Health Auto Export adapter reads from a push's spool file, as one push: on the
/// device's stream, every record in the hot lane (a push is what just happened), and each of the
/// adapter's checkpoints a hot one at the receive time, so the ingest commits a bounded batch
/// at each (all inside the push's one transaction).
struct PushEvents: SourceEventHandler {
    let ingest: ArchiveIngest
    let stream: String
    let receivedAt: Instant

    mutating func receive(_ event: SourceEvent) throws {
        switch event {
        case .streamStarted:
            try ingest.receive(.streamStarted(stream: stream, now: receivedAt, isFullSnapshot: false, endPosition: nil))
        case .checkpoint:
            // The hot cursor's position is the receive time: `status` shows it as the last push.
            try ingest.receive(
                .checkpoint(StreamCursor(stream: stream, lane: .hot, position: receivedAt.millisecondsSinceEpoch)))
        case .record(let record, _): try ingest.receive(.record(record, lane: .hot))
        case .correlation(let record, _): try ingest.receive(.correlation(record, lane: .hot))
        case .correlationComponent(let record, _): try ingest.receive(.correlationComponent(record, lane: .hot))
        case .auxiliaryRecord(let record, _): try ingest.receive(.auxiliaryRecord(record, lane: .hot))
        case .workout(let workout, _): try ingest.receive(.workout(workout, lane: .hot))
        case .resumed, .deletion, .activitySummary, .document, .sourcePriority:
            // Not what Health Auto Export's reader sends; a push resumes nothing.
            try ingest.receive(event)
        }
    }
}
