import AsyncHTTPClient
import HealthETLCore

extension CollectorSink {
    /// One authenticated `GET /v1/healthz`: stores nothing, and fails as an upload would (an
    /// unreachable host, a TLS failure, a refused token), each with its fix.
    public func probe() async throws(DeliveryError) -> CollectorProbe {
        let started = clock.monotonic()
        let answer = try await exchange(
            HTTPClientRequest(url: configuration.endpoint + "/v1/healthz"),
            subject: "the health check")
        let now = clock.now()
        return CollectorProbe(
            usesTLS: configuration.endpoint.hasPrefix("https://"), roundTripSeconds: clock.secondsSince(started),
            serverTime: answer.date.flatMap { HTTPDate.parse($0, now: now) }, localTime: now)
    }
}
