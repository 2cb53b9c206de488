import HealthETLCore
import HealthETLWire

/// The body of `GET /v1/projections/sleep`; only the nights are used.
struct SleepNightsBody: Decodable {
    let nights: [WireSleepNight]
}
