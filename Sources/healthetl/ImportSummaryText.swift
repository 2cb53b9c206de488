import Foundation
import HealthETLPipeline

/// The human summary printed at the end of `healthetl import`.
enum ImportSummaryText {
    static func render(_ summary: ImportSummary) -> String {
        var lines: [String] = []
        let state = summary.complete ? "complete" : "INCOMPLETE"
        lines.append("Imported \(summary.input) (\(state)) in \(String(format: "%.1f", summary.elapsedSeconds)) s")
        if let date = summary.exportDate { lines.append("Export date: \(date)") }
        if summary.resumedAtByte > 0 {
            lines.append(
                "Resumed after \(summary.resumedAtByte) \(summary.positionUnit): what lies before was imported by an"
                    + " earlier run")
        }
        var outcomes = TextTable("  RECORDS", "COUNT")
        outcomes.add("  read", String(summary.recordsRead))
        outcomes.add("  accepted (new)", String(summary.accepted))
        outcomes.add("  flagged (new)", String(summary.flagged))
        for (reason, count) in summary.flaggedByReason.sorted(by: { $0.key < $1.key }) {
            outcomes.add("    " + reason, String(count))
        }
        outcomes.add("  quarantined", String(summary.quarantined))
        for (reason, count) in summary.quarantinedByReason.sorted(by: { $0.key < $1.key }) {
            outcomes.add("    " + reason, String(count))
        }
        outcomes.add("  duplicates (already stored)", String(summary.duplicates))
        outcomes.add("  deleted earlier (kept out)", String(summary.deletedEarlier))
        lines.append(outcomes.rendered)
        var other = TextTable("  ALSO", "COUNT")
        other.add(
            "  lanes hot / cold / change", "\(summary.lanes.hot) / \(summary.lanes.cold) / \(summary.lanes.change)")
        other.add("  correlations", String(summary.correlations))
        other.add(
            "  correlation components new / known",
            "\(summary.correlationComponents.stored) / \(summary.correlationComponents.alreadyStored)")
        other.add("  workouts new / known", "\(summary.workouts) / \(summary.workoutDuplicates)")
        other.add("  activity summaries stored", String(summary.activitySummaries))
        other.add("  documents (Me, ECG, clinical, …)", String(summary.documents))
        other.add(
            "  ECG recordings new / known", "\(summary.otherRecords.stored) / \(summary.otherRecords.alreadyStored)")
        other.add("  tombstones", String(summary.tombstones))
        other.add("  tier 1 sent at once", String(summary.tier1Sent))
        other.add("  warnings", String(summary.warningCount))
        for (kind, count) in summary.warnings.sorted(by: { $0.key < $1.key }) {
            other.add("    " + kind, String(count))
        }
        lines.append(other.rendered)
        if let problem = summary.problem { lines.append("Problem: \(problem)") }
        return lines.joined(separator: "\n")
    }
}
