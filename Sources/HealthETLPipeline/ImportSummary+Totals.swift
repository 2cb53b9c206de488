import HealthETLCore

extension ImportSummary {
    /// The summary of several inputs imported in one command: counts added up, complete only if
    /// every input was.
    public static func total(of summaries: [ImportSummary]) -> ImportSummary {
        var total = ImportSummary(
            input: summaries.map(\.input).joined(separator: ", "), source: summaries.first?.source ?? "")
        total.complete = summaries.allSatisfy(\.complete)
        for part in summaries {
            total.recordsRead += part.recordsRead
            total.counts = total.counts + part.counts
            total.tier1Sent += part.tier1Sent
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
