import ArgumentParser
import HealthETLCore
import HealthETLStore

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

    struct Listing: Encodable {
        struct Batch: Encodable {
            let batchID: String
            let tier: Int
            let state: String
            let samples: Int
            let deletions: Int
            let attempts: Int
            let nextAttempt: String?
            let lastError: String?
            let accepted: Int?
            let rejected: Int
            let created: String

            enum CodingKeys: String, CodingKey {
                case tier, state, samples, deletions, attempts, accepted, rejected, created
                case batchID = "batch_id"
                case nextAttempt = "next_attempt"
                case lastError = "last_error"
            }
        }

        let counts: [String: Int]
        let batches: [Batch]
    }

    func run() throws {
        do {
            let store = try global.openStore()
            switch action {
            case "retry":
                let count = try store.retryUploads(batchID: batchID)
                if batchID != nil && count == 0 {
                    throw CommandFailure("no failed or dead batch \(batchID ?? "") in the queue; see `healthetl queue`")
                }
                try report(["retried": count], text: "\(count) batches back to pending; `healthetl upload` sends them")
            case "purge":
                let count = try store.purgeDeadUploads()
                try report(["purged": count], text: "\(count) dead batches purged")
            default:
                try list(store)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(error)
        }
    }

    private func report(_ value: [String: Int], text: String) throws {
        if json { try JSONOutput.print(value) } else { print(text) }
    }

    private func list(_ store: Store) throws {
        let states: Set<QueueState> = all ? Set(QueueState.allCases) : [.pending, .inFlight, .failed, .dead]
        let uploads = try store.uploads(in: states, limit: limit)
        let counts = try store.uploadCounts()
        let batches = uploads.map { upload in
            Listing.Batch(
                batchID: upload.item.batchID, tier: upload.item.tier.rawValue, state: upload.item.state.name,
                samples: upload.samples, deletions: upload.deletions, attempts: upload.item.attempts,
                nextAttempt: upload.item.state == .failed ? upload.item.nextAttempt.description : nil,
                lastError: upload.item.lastError, accepted: upload.accepted, rejected: upload.rejected,
                created: upload.created.description)
        }
        if json {
            try JSONOutput.print(
                Listing(
                    counts: Dictionary(uniqueKeysWithValues: counts.map { ($0.key.name, $0.value) }), batches: batches))
            return
        }
        print(QueueState.allCases.map { "\($0.name) \(counts[$0] ?? 0)" }.joined(separator: ", "))
        guard !batches.isEmpty else {
            return print(all ? "The queue is empty." : "Nothing waiting: every batch was delivered.")
        }
        var table = TextTable("BATCH", "TIER", "STATE", "SAMPLES", "DELETIONS", "ATTEMPTS", "NEXT / LAST ERROR")
        for batch in batches {
            table.add(
                batch.batchID, String(batch.tier), batch.state, String(batch.samples), String(batch.deletions),
                String(batch.attempts),
                [batch.nextAttempt, batch.lastError].compactMap { $0 }.joined(separator: " "))
        }
        print(table.rendered)
    }
}
