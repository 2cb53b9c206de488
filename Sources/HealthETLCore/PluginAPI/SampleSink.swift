/// A plugin that ships batches somewhere (the collector, a FHIR server, …).
///
/// The retry queue calls `deliver` with the same `batchID` until it gets a receipt or a
/// `DeliveryError.permanent`, so a sink must be idempotent per batch id.
public protocol SampleSink: Sendable {
    /// Stable snake_case registry name, also used in config files (`collector`).
    static var name: String { get }
    var capabilities: SinkCapabilities { get }

    /// Delivers one batch, all-or-nothing.
    /// - Throws: `DeliveryError`, classified for the retry queue.
    func deliver(_ batch: DeliveryBatch) async throws -> DeliveryReceipt
}

// MARK: - Default implementations

extension SampleSink {
    public var capabilities: SinkCapabilities { [.deletions] }
}
