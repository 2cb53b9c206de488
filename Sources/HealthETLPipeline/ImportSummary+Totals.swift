extension ImportSummary {
    /// The summary of several inputs imported in one command: counts added up, complete only if
    /// every input was.
    public static func total(of summaries: [ImportSummary]) -> ImportSummary {
        var total = ImportSummary(
            input: summaries.map(\.input).joined(separator: ", "), source: summaries.first?.source ?? "")
        total.complete = summaries.allSatisfy(\.complete)
        for part in summaries {
            total.recordsRead += part.recordsRead
            total.accepted += part.accepted
            total.flagged += part.flagged
            total.quarantined += part.quarantined
            total.duplicates += part.duplicates
            total.deletedEarlier += part.deletedEarlier
            total.tier1Sent += part.tier1Sent
            total.flaggedByReason.merge(part.flaggedByReason, uniquingKeysWith: +)
            total.quarantinedByReason.merge(part.quarantinedByReason, uniquingKeysWith: +)
            total.correlations += part.correlations
            total.correlationsQuarantined += part.correlationsQuarantined
            total.correlationComponents.add(part.correlationComponents)
            total.otherRecords.add(part.otherRecords)
            total.tombstones += part.tombstones
            total.workouts += part.workouts
            total.workoutDuplicates += part.workoutDuplicates
            total.activitySummaries += part.activitySummaries
            total.documents += part.documents
            total.lanes.hot += part.lanes.hot
            total.lanes.cold += part.lanes.cold
            total.lanes.change += part.lanes.change
            total.warnings.merge(part.warnings, uniquingKeysWith: +)
            total.bytesRead += part.bytesRead
            total.resumedAtByte += part.resumedAtByte
            total.elapsedSeconds += part.elapsedSeconds
        }
        total.problem = summaries.compactMap(\.problem).first
        total.inputs = summaries
        return total
    }
}

extension ImportSummary.SecondaryRecords {
    mutating func add(_ other: ImportSummary.SecondaryRecords) {
        read += other.read
        stored += other.stored
        alreadyStored += other.alreadyStored
        quarantined += other.quarantined
    }
}
