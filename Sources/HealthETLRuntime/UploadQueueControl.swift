import HealthETLCore
import HealthETLStore

/// `queue`: look into the upload queue, put failed or dead batches back, forget dead ones.
/// Their samples stay in the store whatever happens to a batch.
public struct UploadQueueControl: Sendable {
    public let store: StoreDirectory
    public let clock: Clock

    public init(store: StoreDirectory, clock: Clock = .system) {
        self.store = store
        self.clock = clock
    }

    /// The batches not yet delivered (or every batch with `everyState`), oldest first.
    public func list(everyState: Bool, limit: Int) throws -> UploadQueueListing {
        let store = try Store(directory: store, clock: clock)
        let states: Set<QueueState> = everyState ? Set(QueueState.allCases) : [.pending, .inFlight, .failed, .dead]
        let counts = try store.uploadCounts()
        return UploadQueueListing(
            counts: Dictionary(uniqueKeysWithValues: QueueState.allCases.map { ($0.name, counts[$0] ?? 0) }),
            batches: try store.uploads(in: states, limit: limit).map(UploadQueueListing.Batch.init))
    }

    /// Puts one failed or dead batch back to pending, or every dead one when `batchID` is nil.
    /// - Returns: how many batches went back.
    /// - Throws: `UploadQueueError.noSuchBatch` when the named batch is not failed or dead.
    public func retry(batchID: String?) throws -> Int {
        let count = try Store(directory: store, clock: clock).retryUploads(batchID: batchID)
        if let batchID, count == 0 { throw UploadQueueError.noSuchBatch(batchID) }
        return count
    }

    /// Forgets every dead batch. - Returns: how many.
    public func purgeDead() throws -> Int {
        try Store(directory: store, clock: clock).purgeDeadUploads()
    }
}
