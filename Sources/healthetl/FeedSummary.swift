import HealthETLPipeline

/// One line for what following the change feed did.
enum FeedSummary {
    static func line(_ report: FeedReport) -> String {
        if let reason = report.notFollowed { return "Change feed: not followed (\(reason))" }
        return "Change feed: \(report.changes) changes applied"
            + (report.rebuilt ? ", projections rebuilt" : "")
            + "; \(report.scopes) scopes asked, \(report.pulled) pulled, \(report.notModified) unchanged (304)"
            + "; at \(report.cursor) of \(report.head)"
    }
}
