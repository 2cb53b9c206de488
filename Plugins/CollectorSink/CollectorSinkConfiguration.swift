import CZstd
import Foundation
import HealthETLCore

/// Where and how the `collector` sink ships batches: a validated endpoint, the token, timeouts
/// and the zstd level. Properties are read-only so a configuration is always a validated one.
public struct CollectorSinkConfiguration: Sendable, CustomStringConvertible {
    /// The collector's base URL, scheme and host lowercased, no trailing slash
    /// (`https://collector.example.org`, or with a path prefix behind a reverse proxy).
    public let endpoint: String
    public let token: CollectorToken
    /// Plain `http://` to a host other than this machine was explicitly allowed.
    public let allowInsecureHTTP: Bool
    public let connectTimeout: Duration
    /// How long one request may take until the collector's answer starts.
    public let requestTimeout: Duration
    public let zstdLevel: Int32

    /// - Parameters:
    ///   - endpoint: the collector's base URL; `https://`, or `http://` for a collector on this
    ///     machine (127.0.0.0/8, `::1`, `localhost`) unless `allowInsecureHTTP`.
    ///   - allowInsecureHTTP: send health data and the token unencrypted to another host (only on
    ///     a network path you trust).
    /// - Throws: `CollectorSinkError` with a sentence saying what to change.
    public init(
        endpoint: String, token: CollectorToken, allowInsecureHTTP: Bool = false,
        connectTimeout: Duration = .seconds(10),
        requestTimeout: Duration = .seconds(60), zstdLevel: Int32 = 3
    ) throws(CollectorSinkError) {
        self.endpoint = try Self.validated(endpoint, allowInsecureHTTP: allowInsecureHTTP)
        self.token = token
        self.allowInsecureHTTP = allowInsecureHTTP
        guard connectTimeout > .zero, requestTimeout > .zero else {
            throw CollectorSinkError(
                .invalidSetting, "the collector connect and request timeouts must be longer than zero seconds"
            )
        }
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        let levels = ZSTD_minCLevel()...ZSTD_maxCLevel()
        guard levels.contains(zstdLevel) else {
            throw CollectorSinkError(
                .invalidSetting,
                "the zstd level \(zstdLevel) is outside \(levels.lowerBound)…\(levels.upperBound); 3 is a good default"
            )
        }
        self.zstdLevel = zstdLevel
    }

    public var description: String {
        "collector \(endpoint) (token <redacted>, connect timeout \(connectTimeout.seconds) s, "
            + "request timeout \(requestTimeout.seconds) s, zstd level \(zstdLevel))"
    }

    private static func validated(_ text: String, allowInsecureHTTP: Bool) throws(CollectorSinkError)
        -> String
    {
        let quoted = "\"" + String(text.prefix(200)) + "\""
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased()
        else {
            throw CollectorSinkError(
                .invalidEndpoint,
                "the collector endpoint \(quoted) is not a URL; write it like https://collector.example.org")
        }
        // Checked before the URL is quoted anywhere: a password in it must not reach a message.
        guard components.user == nil, components.password == nil else {
            throw CollectorSinkError(
                .invalidEndpoint,
                "the collector endpoint must not contain a user name or password; remove them from the URL and put the token in a token file"
            )
        }
        guard scheme == "https" || scheme == "http" else {
            throw CollectorSinkError(
                .invalidEndpoint,
                "the collector endpoint \(quoted) must start with https:// (or http:// for a collector on this machine)"
            )
        }
        guard let host = components.host, !host.isEmpty else {
            throw CollectorSinkError(
                .invalidEndpoint,
                "the collector endpoint \(quoted) has no host name; write it like https://collector.example.org"
            )
        }
        guard components.query == nil, components.fragment == nil else {
            throw CollectorSinkError(
                .invalidEndpoint,
                "the collector endpoint \(quoted) must not have a ?query or #fragment; give only the base URL"
            )
        }
        if scheme == "http", !allowInsecureHTTP, !LoopbackHost.contains(host) {
            throw CollectorSinkError(
                .insecureEndpoint,
                "the collector endpoint \(quoted) is plain http:// to another machine, which would send health data and the token "
                    + "unencrypted; use https://, or allow insecure HTTP explicitly (--allow-insecure-http) if you trust the network"
            )
        }
        components.scheme = scheme
        guard var normalized = components.string else {
            throw CollectorSinkError(
                .invalidEndpoint,
                "the collector endpoint \(quoted) is not a URL; write it like https://collector.example.org")
        }
        while normalized.hasSuffix("/") { normalized.removeLast() }
        return normalized
    }
}
