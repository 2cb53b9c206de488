import HealthETLWire

/// What `projections` shows: rollups with their freshness, and sleep nights, in the collector
/// API's shapes so `--json` reads like the collector's own answers.
public struct ProjectionListing: Encodable, Sendable {
    /// Where the figures come from.
    public enum Origin: String, Encodable, Sendable {
        /// As the collector computed them, fetched after an upload.
        case collector
        /// Computed here from the store.
        case local
    }

    /// A day's rollup with its freshness: fresh, stale (changed here, not delivered), computing
    /// (delivered, not refreshed yet) or local.
    public struct Day: Encodable, Sendable {
        public let rollup: WireDailyRollup
        public let freshness: String

        public func encode(to encoder: any Encoder) throws {
            try rollup.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(freshness, forKey: .freshness)
        }

        private enum Key: String, CodingKey { case freshness }
    }

    public let from: String
    public let to: String
    public let origin: Origin
    public let days: [Day]
    public let nights: [WireSleepNight]
}
