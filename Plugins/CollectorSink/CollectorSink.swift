import AsyncHTTPClient
import Foundation
import HealthETLCore
import HealthETLWire
import Logging
import NIOCore
import NIOSSL

/// Sink `collector`: ships batches to a healthetl collector (`POST /v1/batches`, zstd JSON,
/// `Idempotency-Key`), sets the source priority its projections rank by, and reads them back.
///
/// One `HTTPClient` serves every request. **Call `shutdown()` before the sink is released**:
/// the client holds connections and event-loop resources that are not freed otherwise.
public final class CollectorSink: SampleSink {
    public static let name = "collector"
    public static let summary =
        "a healthetl collector (`healthetl serve`): zstd JSON batches over HTTPS, projections back"
    public static let capabilities: SinkCapabilities = [.deletions, .projections, .sourcePriority, .changeFeed]

    public let configuration: CollectorSinkConfiguration
    let client: HTTPClient
    /// A client handed in belongs to the caller, who shuts it down.
    private let ownsClient: Bool
    let logger: Logger
    let clock: Clock

    /// A batch answer lists at most one rejection per item; 8 MiB is far above any real one.
    static let maximumAnswerBytes = 8 << 20
    /// Error bodies are one `{error, message}` object.
    static let maximumErrorBytes = 64 << 10

    /// A sink with its own HTTP client (timeouts from the configuration, TLS 1.2 or newer).
    /// - Parameter clock: what `Retry-After` dates and exchange times are measured with.
    public convenience init(
        configuration: CollectorSinkConfiguration, logger: Logger = Logger(label: "healthetl.sink.collector"),
        clock: Clock = .system
    ) {
        self.init(
            configuration: configuration, client: Self.makeHTTPClient(configuration), ownsClient: true,
            logger: logger, clock: clock)
    }

    /// A sink over a client the caller owns and shuts down (its timeouts and TLS settings apply;
    /// `makeHTTPClient(_:)` builds one the way this sink would).
    public convenience init(
        configuration: CollectorSinkConfiguration, httpClient: HTTPClient,
        logger: Logger = Logger(label: "healthetl.sink.collector"),
        clock: Clock = .system
    ) {
        self.init(
            configuration: configuration, client: httpClient, ownsClient: false, logger: logger, clock: clock)
    }

    private init(
        configuration: CollectorSinkConfiguration, client: HTTPClient, ownsClient: Bool, logger: Logger,
        clock: Clock
    ) {
        self.configuration = configuration
        self.client = client
        self.ownsClient = ownsClient
        self.logger = logger
        self.clock = clock
    }

    /// An HTTP client for the collector: the configuration's timeouts, TLS 1.2 at least, no
    /// redirects (they would carry the token to another URL), and no connection retries of its
    /// own (the retry queue decides when to try again, with backoff).
    public static func makeHTTPClient(_ configuration: CollectorSinkConfiguration) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        var settings = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(
                connect: .duration(configuration.connectTimeout),
                read: .duration(configuration.requestTimeout)),
            decompression: .disabled)
        settings.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
    }

    /// Closes the sink's HTTP client (not one handed in). Call it once, when done delivering.
    public func shutdown() async throws {
        guard ownsClient else { return }
        try await client.shutdown()
    }

    // MARK: - SampleSink

    /// `batch.wire` as JSON (sorted keys, written directly: `JSONEncoder` would cost several
    /// microseconds a sample), in one zstd frame.
    public func encode(_ batch: DeliveryBatch) throws(CollectorSinkError) -> [UInt8] {
        try ZstdFrame.compress(WireBatch.jsonBytes(of: batch), level: configuration.zstdLevel)
    }

    /// The collector holds a batch to its JSON's size after decompression.
    public static let maximumBatchBytes: Int? = WireLimits.decodedBatchBytes

    /// The JSON's size, from the zstd frame's header (a payload whose header does not say is
    /// taken at the most it may decompress to, so it is never judged smaller than it is).
    public func decodedSize(of payload: [UInt8]) -> Int {
        ZstdFrame.contentSize(payload) ?? Int.max
    }

    public func deliver(batchID: String, payload: [UInt8]) async throws(DeliveryError) -> DeliveryReceipt {
        let subject = "batch \(batchID)"
        // The collector's rule for idempotency keys; a bad one can never be sent.
        guard (1...128).contains(batchID.utf8.count), batchID.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw .permanent(
                reason:
                    "the batch id is not 1 to 128 printable ASCII characters without spaces, so it cannot be an Idempotency-Key"
            )
        }
        var request = HTTPClientRequest(url: configuration.endpoint + "/v1/batches")
        request.method = .POST
        request.headers.add(name: "Idempotency-Key", value: batchID)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Content-Encoding", value: "zstd")
        request.body = .bytes(payload)
        let answer = try await exchange(request, subject: subject)

        guard let response = try? JSONDecoder().decode(WireBatchResponse.self, from: Data(answer.body)) else {
            // Stored or not, a re-send under the same key is safe and may get a readable answer.
            throw .retryable(
                reason: "the collector's answer to \(subject) is not a batch response", notBeforeSeconds: nil)
        }
        guard response.batchID == batchID else {
            throw .retryable(
                reason: "the collector answered \(subject) with the response of another batch",
                notBeforeSeconds: nil)
        }
        var rejected: [ItemRejection] = []
        rejected.reserveCapacity(response.rejected.count)
        for rejection in response.rejected {
            guard let id = ContentID(hex: rejection.id) else {
                throw .permanent(
                    reason:
                        "the collector rejected \(rejection.item) \(rejection.index) of \(subject) (\(rejection.reason)) "
                        + "under an id that is not 32 hex digits, so it cannot be matched to a local item")
            }
            rejected.append(ItemRejection(id: id, reason: rejection.reason))
        }
        logger.debug(
            "Collector accepted a batch",
            metadata: [
                "batch.id": "\(batchID)", "batch.payload_bytes": "\(payload.count)",
                "batch.accepted": "\(response.accepted)", "batch.deleted": "\(response.deleted)",
                "batch.rejected": "\(rejected.count)", "batch.replayed": "\(answer.replayed)",
            ])
        return DeliveryReceipt(accepted: response.accepted + response.deleted, rejected: rejected)
    }
}
