import HealthETLCore
import HealthETLStore

/// Before projections are refreshed, tells the sink the store's source priority when it differs
/// from what the sink last accepted, so the sink's projections rank sources in the order
/// `projections --local` does. A failure is reported, never thrown: the uploads stand, and the
/// next run tries again because nothing was recorded as sent.
public struct SourcePrioritySync {
    let store: any ProjectionLedger & SinkSettingsLedger
    let sink: any SampleSink
    /// The config file's `projections.source_priority`; nil when it sets none.
    let configured: [String]?

    static let setting = "source_priority"

    public init(store: any ProjectionLedger & SinkSettingsLedger, sink: any SampleSink, configured: [String]?) {
        self.store = store
        self.sink = sink
        self.configured = configured
    }

    public struct Outcome: Sendable, Equatable {
        public var sent: Bool
        /// Why a priority the sink should have was not sent.
        public var notSent: String?

        public init(sent: Bool = false, notSent: String? = nil) {
            self.sent = sent
            self.notSent = notSent
        }
    }

    /// Sends the priority if it changed, then marks every local projection day stale: the sink
    /// recomputes them all in the new order.
    public func send() async throws -> Outcome {
        let sinkType = type(of: sink)
        // A priority removed from the config file is sent as the empty list (the default order),
        // and one never set needs no sending: the sink starts in the default order.
        let wanted = configured ?? []
        let last = try store.sentSinkSetting(Self.setting, sink: sinkType.name)
        guard JSONText.array(wanted) != (last ?? JSONText.array([])) else { return Outcome() }
        guard sinkType.capabilities.contains(.sourcePriority) else {
            return Outcome(
                notSent:
                    "the \(sinkType.name) sink takes no source priority; its projections use the default order"
            )
        }
        do throws(DeliveryError) {
            try await sink.setSourcePriority(wanted)
        } catch {
            switch error {
            case .retryable(let reason, _), .permanent(let reason), .unauthorized(let reason):
                return Outcome(notSent: reason + "; the next run tries again")
            }
        }
        try store.recordSentSinkSetting(Self.setting, value: JSONText.array(wanted), sink: sinkType.name)
        try store.markEveryProjectionDirty()
        return Outcome(sent: true)
    }
}
