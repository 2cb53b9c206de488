import HealthETLCore

/// Everything a source adapter handed on, in order, with the kinds a test looks for picked out.
struct SourceEventLog: SourceEventHandler {
    private(set) var events: [SourceEvent] = []

    mutating func receive(_ event: SourceEvent) throws {
        events.append(event)
    }

    var streams: [String] {
        events.compactMap { event -> String? in
            guard case .streamStarted(let stream, _, _, _, _) = event else { return nil }
            return stream
        }
    }

    /// Top-level records only.
    var records: [RawRecord] {
        events.compactMap { event -> RawRecord? in
            guard case .record(let record, _) = event else { return nil }
            return record
        }
    }

    /// Records derived from the export's other files (ECGs), with their lane.
    var auxiliaryRecords: [(record: RawRecord, lane: Lane)] {
        events.compactMap { event -> (record: RawRecord, lane: Lane)? in
            guard case .auxiliaryRecord(let record, let lane) = event else { return nil }
            return (record, lane)
        }
    }

    var workouts: [Workout] {
        events.compactMap { event -> Workout? in
            guard case .workout(let workout, _) = event else { return nil }
            return workout
        }
    }

    var activitySummaries: [ActivitySummary] {
        events.compactMap { event -> ActivitySummary? in
            guard case .activitySummary(let summary) = event else { return nil }
            return summary
        }
    }

    var documents: [ExportDocument] {
        events.compactMap { event -> ExportDocument? in
            guard case .document(let document) = event else { return nil }
            return document
        }
    }
}
