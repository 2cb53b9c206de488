import HealthETLCore
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
}
