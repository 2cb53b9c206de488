import HealthETLCore

/// The step an import takes right behind a reader: every record the reader hands on is
/// normalized against the catalog, with the stream's own "now", so values that only trip the
/// arithmetic on them (dates, offsets, units) are part of what a fuzz target tries.
struct NormalizingHandler: SourceEventHandler {
    private var normalizer: Normalizer
    /// Records normalized so far.
    private(set) var records = 0

    init(catalog: MetricCatalog, now: Instant) {
        normalizer = Normalizer(catalog: catalog, now: now)
    }

    mutating func receive(_ event: SourceEvent) throws {
        switch event {
        case .streamStarted(_, let now, _, _, _):
            normalizer.now = now
        case .record(let record, _), .correlation(let record, _), .correlationComponent(let record, _),
            .auxiliaryRecord(let record, _):
            _ = normalizer.normalize(record)
            records += 1
        case .resumed, .deletion, .workout, .activitySummary, .document, .sourcePriority, .checkpoint:
            break
        }
    }
}
