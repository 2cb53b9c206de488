/// A plugin that ships batches somewhere (the collector, a FHIR server, …).
///
/// A batch is encoded once, when it enters the retry queue; the queue stores those bytes and
/// sends exactly them on every attempt, under the same batch id, until the sink answers with a
/// receipt or a `DeliveryError.permanent`. So a sink must be idempotent per batch id.
public protocol SampleSink: Sendable {
    /// Stable snake_case registry name, also its config section (`sinks.collector`).
    static var name: String { get }
    /// One line for `healthetl plugins`.
    static var summary: String { get }
    /// What it does; the sink conformance suite checks each one.
    static var capabilities: SinkCapabilities { get }
    /// The keys its config section takes.
    static var settings: [PluginSetting] { get }

    /// Makes the sink from its config section (and the environment, for credentials).
    /// - Throws: a message that names the setting to fix.
    static func make(_ settings: PluginSettings, environment: [String: String]) throws -> Self

    /// The largest batch the far end takes, measured as `decodedSize(of:)` does; `nil` for no
    /// limit. The uploader forms batches within it, whatever the configured budget.
    static var maximumBatchBytes: Int? { get }

    /// The request body for a batch, exactly as it will be sent on every attempt.
    func encode(_ batch: DeliveryBatch) throws -> [UInt8]

    /// The size of an encoded batch as the far end limits it (after it decompresses the body,
    /// say); by default the payload's own size.
    func decodedSize(of payload: [UInt8]) -> Int

    /// Delivers one encoded batch, all-or-nothing.
    /// - Throws: `DeliveryError`, classified for the retry queue.
    func deliver(batchID: String, payload: [UInt8]) async throws(DeliveryError) -> DeliveryReceipt

    /// The sink's daily rollups of a metric (sinks with `.projections`).
    /// Each carries the sink's `computedAt`.
    func dailyRollups(metric: String, from: CivilDate, to: CivilDate) async throws(DeliveryError) -> [DailyRollup]

    /// The sink's sleep nights (sinks with `.projections`), each with the sink's `computedAt`.
    func sleepNights(from: CivilDate, to: CivilDate) async throws(DeliveryError) -> [SleepNight]

    /// Sets the source names, best first, that outrank the default order in the sink's
    /// projections (sinks with `.sourcePriority`); an empty list restores the default order.
    /// - Throws: `DeliveryError`, `.permanent` when the sink cannot take these names.
    func setSourcePriority(_ sources: [String]) async throws(DeliveryError)

    /// The sink's change feed after `since` (sinks with `.changeFeed`).
    func changes(since: Int64, limit: Int) async throws(DeliveryError) -> FeedRead

    /// The sink's change feed as it happens, from `since` (sinks with `.changeFeed`). The stream
    /// ends (throwing) when the connection does; the caller reconnects.
    func changeStream(since: Int64) -> AsyncThrowingStream<FeedEvent, any Error>

    /// One projection scope (`.daily`, `.sleep` or `.insights`), unless it is unchanged since
    /// `etag` (sinks with `.changeFeed`).
    func projection(_ scope: ChangeKey, ifNoneMatch etag: String?) async throws(DeliveryError) -> ProjectionAnswer

    /// Which projections the sink may have (sinks with `.changeFeed`).
    func projectionExtent() async throws(DeliveryError) -> ProjectionExtent

    /// Releases what the sink holds (connections); called once, after its last use.
    func shutdown() async throws
}

// MARK: - Default implementations

extension SampleSink {
    public static var settings: [PluginSetting] { [] }

    public static var maximumBatchBytes: Int? { nil }

    public func decodedSize(of payload: [UInt8]) -> Int { payload.count }

    public static var descriptor: PluginDescriptor {
        PluginDescriptor(
            name: name, kind: .sink, capabilities: capabilities.names, summary: summary, settings: settings)
    }

    public func shutdown() async throws {}

    public func dailyRollups(metric: String, from: CivilDate, to: CivilDate) async throws(DeliveryError)
        -> [DailyRollup]
    {
        throw .permanent(reason: "\(Self.name) serves no projections")
    }

    public func sleepNights(from: CivilDate, to: CivilDate) async throws(DeliveryError) -> [SleepNight] {
        throw .permanent(reason: "\(Self.name) serves no projections")
    }

    public func setSourcePriority(_ sources: [String]) async throws(DeliveryError) {
        throw .permanent(reason: "\(Self.name) takes no source priority")
    }

    public func changes(since: Int64, limit: Int) async throws(DeliveryError) -> FeedRead {
        throw .permanent(reason: "\(Self.name) keeps no change feed")
    }

    public func changeStream(since: Int64) -> AsyncThrowingStream<FeedEvent, any Error> {
        AsyncThrowingStream {
            $0.finish(throwing: DeliveryError.permanent(reason: "\(Self.name) keeps no change feed"))
        }
    }

    public func projection(_ scope: ChangeKey, ifNoneMatch etag: String?) async throws(DeliveryError)
        -> ProjectionAnswer
    {
        throw .permanent(reason: "\(Self.name) keeps no change feed")
    }

    public func projectionExtent() async throws(DeliveryError) -> ProjectionExtent {
        throw .permanent(reason: "\(Self.name) keeps no change feed")
    }
}
