/// A plugin that ships batches somewhere (the collector, a FHIR server, …).
///
/// A batch is encoded once, when it enters the retry queue; the queue stores those bytes and
/// sends exactly them on every attempt, under the same batch id, until the sink answers with a
/// receipt or a `DeliveryError.permanent`. So a sink must be idempotent per batch id.
public protocol SampleSink: Sendable {
    /// Stable snake_case registry name, also used in config files (`collector`).
    static var name: String { get }
    var capabilities: SinkCapabilities { get }

    /// The request body for a batch, exactly as it will be sent on every attempt.
    func encode(_ batch: DeliveryBatch) throws -> [UInt8]

    /// Delivers one encoded batch, all-or-nothing.
    /// - Throws: `DeliveryError`, classified for the retry queue.
    func deliver(batchID: String, payload: [UInt8]) async throws(DeliveryError) -> DeliveryReceipt

    /// The sink's daily rollups of a metric (sinks with `.projections`).
    func dailyRollups(metric: String, from: CivilDate, to: CivilDate) async throws(DeliveryError) -> [WireDailyRollup]

    /// The sink's sleep nights (sinks with `.projections`).
    func sleepNights(from: CivilDate, to: CivilDate) async throws(DeliveryError) -> [WireSleepNight]
}

// MARK: - Default implementations

extension SampleSink {
    public var capabilities: SinkCapabilities { [.deletions] }

    public func dailyRollups(metric: String, from: CivilDate, to: CivilDate) async throws(DeliveryError) -> [WireDailyRollup] {
        throw .permanent(reason: "\(Self.name) serves no projections")
    }

    public func sleepNights(from: CivilDate, to: CivilDate) async throws(DeliveryError) -> [WireSleepNight] {
        throw .permanent(reason: "\(Self.name) serves no projections")
    }
}
