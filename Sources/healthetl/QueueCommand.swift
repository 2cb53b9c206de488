import ArgumentParser
import HealthETLCore
import HealthETLRuntime

/// `healthetl queue`: inspect, retry or purge the upload queue.
struct QueueCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "Inspect, retry or purge upload batches (dead letters included).",
        discussion: """
            healthetl queue [list]           batches not yet delivered (--all: every batch)
            healthetl queue retry ID         put one failed or dead batch back to pending
            healthetl queue retry --dead     put every dead batch back to pending
            healthetl queue purge --dead     forget dead batches (their samples stay in the store)
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Argument(help: ArgumentHelp("list, retry or purge.", valueName: "action"))
    var action = "list"

    @Argument(help: ArgumentHelp("With retry: the batch id.", valueName: "id"))
    var batchID: String?

    @Flag(help: "With retry or purge: every dead batch.")
    var dead = false

    @Flag(help: "With list: delivered batches too.")
    var all = false

    @Option(help: ArgumentHelp("With list: at most this many batches.", valueName: "n"))
    var limit = 50

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        switch action {
        case "list":
            guard batchID == nil, !dead else { throw ValidationError("list takes no id and no --dead") }
        case "retry":
            guard (batchID == nil) == dead else {
                throw ValidationError("retry takes a batch id, or --dead for every dead batch")
            }
        case "purge":
            guard dead, batchID == nil else {
                throw ValidationError("purge takes --dead (only dead batches can be purged)")
            }
        default:
            throw ValidationError("the action is list, retry or purge, not \"\(action)\"")
        }
    }

    func run() throws {
        let queue = UploadQueueControl(store: global.storeDirectory)
        try CommandFailure.wrapping {
            switch action {
            case "retry":
                let count = try queue.retry(batchID: batchID)
                try report(["retried": count], text: "\(count) batches back to pending; `healthetl upload` sends them")
            case "purge":
                let count = try queue.purgeDead()
                try report(["purged": count], text: "\(count) dead batches purged")
            default:
                try show(try queue.list(everyState: all, limit: limit))
            }
        }
    }

    private func report(_ value: [String: Int], text: String) throws {
        if json { try JSONOutput.print(value) } else { print(text) }
    }

    private func show(_ listing: UploadQueueListing) throws {
        if json { return try JSONOutput.print(listing) }
        print(QueueState.allCases.map { "\($0.name) \(listing.counts[$0.name] ?? 0)" }.joined(separator: ", "))
        guard !listing.batches.isEmpty else {
            return print(all ? "The queue is empty." : "Nothing waiting: every batch was delivered.")
        }
        var table = TextTable("BATCH", "TIER", "STATE", "SAMPLES", "DELETIONS", "ATTEMPTS", "NEXT / LAST ERROR")
        for batch in listing.batches {
            table.add(
                batch.batchID, String(batch.tier), batch.state, String(batch.samples), String(batch.deletions),
                String(batch.attempts),
                [batch.nextAttempt, batch.lastError].compactMap { $0 }.joined(separator: " "))
        }
        print(table.rendered)
    }
}
