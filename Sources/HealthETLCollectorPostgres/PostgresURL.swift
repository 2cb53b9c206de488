import Foundation
import HealthETLCollectorStorage
import NIOSSL
import PostgresNIO

/// A `postgres://user:password@host:port/database?sslmode=…` URL, as libpq reads one: the
/// database defaults to the user's name, the port to 5432, `sslmode` to `prefer`; `host=/dir`
/// in the query (or a host that is a path) connects through that directory's Unix socket.
public struct PostgresURL: Sendable {
    public var configuration: PostgresClient.Configuration
    /// The URL without its password, for messages and logs.
    public var redacted: String

    /// - Parameter connections: the pool's largest size.
    public init(_ text: String, connections: Int) throws {
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme)
        else {
            throw CollectorError("the database URL must look like postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        guard let user = components.percentEncodedUser?.removingPercentEncoding, !user.isEmpty else {
            throw CollectorError("the database URL names no user (postgres://USER@HOST/DATABASE)")
        }
        let password = components.percentEncodedPassword?.removingPercentEncoding
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.isEmpty ? user : path
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let socketDirectory = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            let port = components.port ?? 5432
            configuration = .init(
                unixSocketPath: socketDirectory + "/.s.PGSQL.\(port)", username: user, password: password,
                database: database)
        } else {
            configuration = .init(
                host: components.host ?? "localhost", port: components.port ?? 5432, username: user,
                password: password, database: database, tls: try Self.tls(query["sslmode"] ?? "prefer"))
        }
        configuration.options.maximumConnections = connections
        self.configuration = configuration
        var shown = components
        shown.password = nil
        redacted = shown.string ?? "postgres://…"
    }

    /// libpq's `sslmode`: `require` encrypts without checking the certificate, `verify-full`
    /// checks it and the host name.
    static func tls(_ mode: String) throws -> PostgresClient.Configuration.TLS {
        switch mode {
        case "disable": return .disable
        case "prefer", "allow":
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            return .prefer(tls)
        case "require":
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            return .require(tls)
        case "verify-ca":
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .noHostnameVerification
            return .require(tls)
        case "verify-full": return .require(.makeClientConfiguration())
        default:
            throw CollectorError(
                "sslmode=\(mode) is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
    }
}
