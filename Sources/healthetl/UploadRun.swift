import HealthETLPipeline

/// How `upload` and `sync` report: a summary or one JSON object, and exit 3 while batches are
/// still waiting.
enum UploadRun {
    static func print(_ report: UploadReport, json: Bool) throws {
        if json {
            try JSONOutput.print(report)
        } else {
            Swift.print(
                """
                Queued: \(report.queuedBatches) batches (\(report.queuedSamples) samples, \(report.queuedDeletions) deletions)
                Sent: \(report.attempts) attempts, \(report.deliveredBatches) batches delivered, \(report.acceptedItems) items accepted, \
                \(report.rejectedItems) refused by the collector (see `healthetl queue`)
                Failed: \(report.failedAttempts) attempts; \(report.deadBatches) batches dead; \(report.waitingBatches) waiting for a retry
                """)
            if report.sourcePrioritySent {
                Swift.print("Source priority: sent (the collector recomputes its projections in the new order)")
            } else if let reason = report.sourcePriorityNotSent {
                Swift.print("Source priority: not sent (\(reason))")
            }
            if let projections = report.projections {
                Swift.print(
                    "Projections: \(projections.days) days and \(projections.nights) nights of \(projections.metrics) metrics refreshed"
                        + (projections.notRefreshed.map { " (\($0))" } ?? ""))
            }
            if let feed = report.feed {
                Swift.print(FeedSummary.line(feed))
            }
        }
        if report.waitingBatches > 0 || report.deadBatches > 0 {
            throw CommandFailure(
                "\(report.waitingBatches) batches wait for a retry and \(report.deadBatches) are dead; run `healthetl sync --catch-up` "
                    + "to keep retrying, and `healthetl queue` to see why", exitCode: .partial)
        }
    }
}
