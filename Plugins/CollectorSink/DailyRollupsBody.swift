import HealthETLCore
import HealthETLWire

/// The body of `GET /v1/projections/daily`; only the days are used.
struct DailyRollupsBody: Decodable {
    let days: [WireDailyRollup]
}
