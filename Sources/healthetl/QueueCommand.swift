import ArgumentParser
import HealthETLCore
import HealthETLRuntime

/// `healthetl queue`: inspect, retry or purge the upload queue, one subcommand per action.
struct QueueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "Inspect, retry or purge upload batches (dead letters included).",
        subcommands: [QueueListCommand.self, QueueRetryCommand.self, QueuePurgeCommand.self],
        defaultSubcommand: QueueListCommand.self)
}

/// `healthetl queue list`: the batches not yet delivered, or every batch.
struct QueueListCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the batches not yet delivered (the default action).")

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Flag(help: "Delivered batches too.")
    var all = false

    @Option(help: ArgumentHelp("At most this many batches.", valueName: "n"))
    var limit = 50

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let listing = try CommandFailure.wrapping {
            try UploadQueueControl(store: global.storeDirectory).list(everyState: all, limit: limit)
        }
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

/// `healthetl queue retry ID | --dead`: failed or dead batches back to pending.
struct QueueRetryCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Put one failed or dead batch, or every dead batch, back to pending.")

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Argument(help: ArgumentHelp("The batch id.", valueName: "id"))
    var batchID: String?

    @Flag(help: "Every dead batch.")
    var dead = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard (batchID == nil) == dead else {
            throw ValidationError("retry takes a batch id, or --dead for every dead batch")
        }
    }

    func run() throws {
        let count = try CommandFailure.wrapping {
            try UploadQueueControl(store: global.storeDirectory).retry(batchID: batchID)
        }
        if json { return try JSONOutput.print(["retried": count]) }
        print("\(count) batches back to pending; `healthetl upload` sends them")
    }
}

/// `healthetl queue purge --dead`: forget dead batches.
struct QueuePurgeCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "purge", abstract: "Forget dead batches (their samples stay in the store).")

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Flag(help: "Every dead batch (the only batches that can be purged).")
    var dead = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard dead else { throw ValidationError("purge takes --dead (only dead batches can be purged)") }
    }

    func run() throws {
        let count = try CommandFailure.wrapping { try UploadQueueControl(store: global.storeDirectory).purgeDead() }
        if json { return try JSONOutput.print(["purged": count]) }
        print("\(count) dead batches purged")
    }
}
