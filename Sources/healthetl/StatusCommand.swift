import ArgumentParser
import HealthETLStore

/// `healthetl status`: what the store holds.
struct StatusCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show samples by metric, quarantine by reason, cursors by source and lane, tombstones.")

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    func run() throws {
        let status: StoreStatus
        do {
            status = try global.openStore().status()
        } catch {
            throw CommandFailure(error)
        }
        if json {
            try JSONOutput.print(status)
            return
        }
        print("Store: \(status.store)")
        print("Samples: \(status.samples.total) (\(status.samples.flagged) flagged)")
        if !status.samples.byMetric.isEmpty {
            var table = TextTable("  METRIC", "SAMPLES")
            for (metric, count) in status.samples.byMetric.sorted(by: { $0.key < $1.key }) {
                table.add("  " + metric, String(count))
            }
            print(table.rendered)
        }
        print("Quarantined: \(status.quarantine.total)")
        for (reason, count) in status.quarantine.byReason.sorted(by: { $0.key < $1.key }) {
            print("  \(reason): \(count)")
        }
        print("Tombstones: \(status.tombstones.total)")
        print(
            "Workouts: \(status.workouts.total) (\(status.workouts.matchedAcrossSources) also recorded by another source,"
                + " counted once)")
        print("Dirty projection keys: \(status.dirtyProjectionKeys)")
        let queue = status.queue
        print(
            "Upload queue: \(queue.pending) pending, \(queue.inFlight) in flight, \(queue.failed) failed, \(queue.dead) dead, "
                + "\(queue.done) done; \(queue.rejectedItems) items refused; last upload \(queue.lastUpload ?? "never")"
        )
        let feed = status.feed
        if let endpoint = feed.endpoint, let cursor = feed.cursor, let head = feed.head {
            print(
                "Change feed: \(endpoint) at \(cursor) of \(head) (\(feed.behind ?? 0) behind); last event "
                    + "\(feed.lastEvent ?? "none"); last applied \(feed.lastApplied ?? "never")"
                    + (feed.lagSeconds.map { String(format: " (%.0f s ago)", $0) } ?? ""))
        } else {
            print("Change feed: not followed yet (`healthetl follow`, or the next upload)")
        }
        if status.cursors.isEmpty {
            print("Cursors: none yet")
        } else {
            var table = TextTable("  STREAM", "LANE", "POSITION", "UPDATED")
            for cursor in status.cursors {
                table.add("  " + cursor.stream, cursor.lane, String(cursor.position), cursor.updatedAt)
            }
            print("Cursors:\n" + table.rendered)
        }
    }
}
