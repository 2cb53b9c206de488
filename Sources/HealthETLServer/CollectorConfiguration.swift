import Glibc
import HealthETLCore
import HealthETLMCP
import HealthETLWire

/// How `healthetl serve` runs: where it listens, keeps its data, finds its tokens, and how
/// large a batch may be.
public struct CollectorConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port (the bound one is reported through `onListening`).
    public var port: Int
    /// The collector's own directory: its SQLite database lives here (0700 / 0600).
    public var dataDirectory: String
    /// `USER_ID TOKEN` lines, mode 0600.
    public var tokensPath: String
    /// Largest request body as sent (compressed or not).
    public var maximumBodyBytes: Int
    /// Largest batch after zstd decompression.
    public var maximumDecodedBytes: Int
    /// Stored and logged times (tests set it).
    public var clock: Clock
    /// A connection that has sent no request for this long (a request's head included) is
    /// closed, so idle or stalled clients cannot hold file descriptors for ever.
    public var idleTimeoutSeconds: Double = 15
    /// Connections served at once; more wait in the listen backlog. Below the open-file limit, so
    /// the collector never runs out of descriptors for its database and never spins on accept.
    public var maximumConnections = CollectorConfiguration.connectionCapForFileLimit()
    /// A PostgreSQL URL to keep the data in instead of the embedded SQLite database.
    public var databaseURL: String?
    /// The PostgreSQL connection pool's largest size.
    public var databaseConnections = 20
    /// How long the change feed keeps a change; a client further behind rebuilds its projections.
    public var changeRetention: Duration = .seconds(30 * 86_400)
    /// A change stream with nothing to send sends a comment this often.
    public var streamHeartbeat: Duration = .seconds(15)
    /// Change streams one user may hold open at once.
    public var maximumStreamsPerUser = 16
    /// A change stream whose client has not taken a write for this long is closed.
    public var streamWriteTimeout: Duration = .seconds(10)
    /// The metrics listener and the drain timeout.
    public var operations = ServerOperations()
    /// `serve --mcp`: the MCP tools at `/mcp` over these metrics; `nil` serves no `/mcp`.
    public var mcp: MetricAccess?

    public init(
        host: String = "127.0.0.1", port: Int = 8787, dataDirectory: String, tokensPath: String,
        maximumBodyBytes: Int = 32 << 20, maximumDecodedBytes: Int = WireLimits.decodedBatchBytes,
        clock: Clock = .system
    ) {
        self.clock = clock
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.tokensPath = tokensPath
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumDecodedBytes = maximumDecodedBytes
    }

    /// The open-file soft limit less what the collector itself needs (database, WAL, logs, the
    /// listening socket), at least 16.
    public static func connectionCapForFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 960 }
        // An unlimited soft limit reads as the largest value: serve a generous but finite number.
        return max(16, Int(min(limit.rlim_cur, 1 << 16)) - 64)
    }
}
