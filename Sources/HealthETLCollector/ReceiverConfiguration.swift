/// How `healthetl receive` listens.
public struct ReceiverConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// `NAME TOKEN` lines: each token names the device (or person) whose pushes it carries.
    public var tokensPath: String
    /// Largest body as sent, and as decompressed.
    public var maximumBodyBytes: Int
    public var maximumDecodedBytes: Int
    public var idleTimeoutSeconds: Double = 15
    public var maximumConnections = CollectorConfiguration.connectionCapForFileLimit()
    /// The metrics listener and the drain timeout.
    public var operations = ServerOperations()

    public init(host: String, port: Int, tokensPath: String, maximumBodyBytes: Int, maximumDecodedBytes: Int) {
        self.host = host
        self.port = port
        self.tokensPath = tokensPath
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumDecodedBytes = maximumDecodedBytes
    }
}
