/// How `healthetl receive` listens.
public struct ReceiverConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// `NAME TOKEN` lines: each token names the device (or person) whose pushes it carries.
    public var tokensPath: String
    /// Where bodies are decoded to until they are committed: a private directory (0700), created
    /// when missing; spool files a killed receiver left there are removed at the start.
    public var spoolDirectory: String
    /// Largest body as sent, and as decompressed.
    public var maximumBodyBytes: Int
    public var maximumDecodedBytes: Int
    /// Decoded bytes of all the pushes in flight together; a push past it is answered 503.
    public var maximumDecodedBytesInFlight: Int
    public var idleTimeoutSeconds: Double = 15
    public var maximumConnections = CollectorConfiguration.connectionCapForFileLimit()
    /// The metrics listener and the drain timeout.
    public var operations = ServerOperations()

    /// The in-flight budget defaults to two of the largest pushes.
    public init(
        host: String, port: Int, tokensPath: String, spoolDirectory: String, maximumBodyBytes: Int,
        maximumDecodedBytes: Int
    ) {
        self.host = host
        self.port = port
        self.tokensPath = tokensPath
        self.spoolDirectory = spoolDirectory
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumDecodedBytes = maximumDecodedBytes
        maximumDecodedBytesInFlight = 2 * maximumDecodedBytes
    }
}
