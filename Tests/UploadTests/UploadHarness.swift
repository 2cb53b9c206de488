import CollectorSink
import Foundation
import HealthETLCollectorSQLite
import HealthETLCore
import HealthETLPipeline
import HealthETLSQLite
import HealthETLServer
import HealthETLStore
import HealthETLTestSupport
import HealthETLWire
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// A clock the tests own: it starts at a fixed instant and either follows real time from there
/// (so the uploader's real sleeps and the queue's next-attempt times agree) or stands still until
/// moved.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offsetMilliseconds: Int64 = 0
    private let origin: Instant
    private let running: Bool
    private let started = ContinuousClock.now

    /// 2026-01-01T00:00:00Z unless told otherwise.
    init(origin: Instant = Instant(secondsSinceEpoch: 1_767_225_600), running: Bool = true) {
        self.origin = origin
        self.running = running
    }

    func now() -> Instant {
        let elapsed = running ? ContinuousClock.now - started : .zero
        let milliseconds =
            elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        return Instant(
            millisecondsSinceEpoch: origin.millisecondsSinceEpoch + lock.withLock { offsetMilliseconds }
                + milliseconds)
    }

    func advance(seconds: Int64) {
        lock.withLock { offsetMilliseconds += seconds * 1000 }
    }
}

/// The real collector (`HealthETLCollector`, SQLite storage) on a loopback port over a fresh
/// data directory, with one user, and what its database holds.
struct UploadCollector: Sendable {
    static let token = "upload-token-0123456789abcdef01"
    static let quiet: Logger = {
        var logger = Logger(label: "upload-tests")
        logger.logLevel = .critical
        return logger
    }()

    let directory = TemporaryDirectory("upload-collector")
    /// The largest batch JSON it takes after decompression.
    let maximumDecodedBytes: Int
    var dataDirectory: String { directory.child("data") }
    var databasePath: String { directory.child("data/healthetl.sqlite") }

    init(maximumDecodedBytes: Int = WireLimits.decodedBatchBytes) {
        self.maximumDecodedBytes = maximumDecodedBytes
        _ = FileManager.default.createFile(
            atPath: directory.child("tokens"), contents: Data("me \(Self.token)\n".utf8),
            attributes: [.posixPermissions: 0o600])
    }

    /// Runs `body` with the collector's port while it serves, and a pool that makes sinks and
    /// shuts them all down however `body` ends.
    func run(_ body: @escaping @Sendable (Int, Sinks) async throws -> Void) async throws {
        let catalog = try MetricCatalog.bundled()
        let configuration = CollectorConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: dataDirectory, tokensPath: directory.child("tokens"),
            maximumDecodedBytes: maximumDecodedBytes)
        let storage = try SQLiteCollectorStorage(directory: dataDirectory, users: ["me"], catalog: catalog)
        let app = try Collector.application(
            configuration: configuration, storage: storage, tokensPath: directory.child("tokens"),
            catalog: catalog,
            logger: Self.quiet)
        let sinks = Sinks()
        do {
            try await app.test(.live) { client in
                try await body(try #require(client.port), sinks)
            }
        } catch {
            await sinks.shutdown()
            throw error
        }
        await sinks.shutdown()
    }

    /// The sample ids the collector stores (hex), with how many rows hold each.
    func sampleRows() throws -> [String: Int] {
        let connection = try SQLiteConnection(path: databasePath)
        let statement = try connection.prepare("SELECT lower(hex(id)), count(*) FROM samples GROUP BY id")
        var rows: [String: Int] = [:]
        while try statement.step() { rows[statement.text(0) ?? "", default: 0] += Int(statement.int64(1)) }
        return rows
    }

    func sampleCount() throws -> Int {
        Int(try SQLiteConnection(path: databasePath).scalar("SELECT count(*) FROM samples") ?? -1)
    }
}

/// Makes `CollectorSink`s as the CLI does and shuts every one down at the end of a test.
final class Sinks: @unchecked Sendable {
    private let lock = NSLock()
    private var made: [CollectorSink] = []

    /// A sink to `port` (the collector or a front forwarding to it).
    func make(port: Int, requestTimeout: Duration = .seconds(10), token: String = UploadCollector.token) throws
        -> CollectorSink
    {
        let configuration = try CollectorSinkConfiguration(
            endpoint: "http://127.0.0.1:\(port)", token: try CollectorToken(token),
            connectTimeout: .seconds(2), requestTimeout: requestTimeout)
        let sink = CollectorSink(configuration: configuration, logger: UploadCollector.quiet)
        lock.withLock { made.append(sink) }
        return sink
    }

    func shutdown() async {
        let all = lock.withLock {
            defer { made.removeAll() }
            return made
        }
        for sink in all { try? await sink.shutdown() }
    }
}

/// Building stores, sinks and uploaders the way the upload tests need them.
enum Upload {
    /// Short, exact waits: base 0.4 s with the jitter fixed at one half, so the first retry of a
    /// failure without Retry-After waits 0.2 s, the second 0.4 s.
    static let policy = RetryPolicy(maximumAttempts: 5, baseSeconds: 0.4, capSeconds: 2)
    static let jitter = 0.5

    static func uploader(
        _ store: Store, _ sink: any SampleSink, clock: TestClock, batchSamples: Int = 5_000,
        batchBytes: Int = UploadLimits().bytes,
        policy: RetryPolicy = policy,
        owner: Int32 = 7_001, isAlive: @escaping (Int32) -> Bool = { _ in true }, concurrency: Int = 1
    ) -> Uploader {
        Uploader(
            store: store, sink: sink, limits: UploadLimits(samples: batchSamples, bytes: batchBytes), policy: policy,
            clock: .following { clock.now() },
            randomness: Randomness { jitter }, owner: owner, isAlive: isAlive, leaseSeconds: 300,
            concurrency: concurrency)
    }

    static func store(_ path: String, clock: TestClock) throws -> Store {
        try Store(directory: StoreDirectory(path: path), clock: .following { clock.now() })
    }

    /// Commits samples (and tombstones) in one batch of a test stream, moving its cursor on.
    static func commit(_ store: Store, _ samples: [Sample], tombstones: [Tombstone] = [], lane: Lane = .cold)
        throws
    {
        let position = (try store.cursor(stream: "test:upload", lane: lane) ?? 0) + 1
        try store.commit(
            CommitBatch(
                stream: "test:upload", samples: samples.map { LanedSample($0, lane: lane) },
                tombstones: tombstones,
                cursors: [lane: position]))
    }

    /// A sample starting at `start` (UTC), its id from its content.
    static func sample(
        _ metric: String = "step_count", _ start: String, minutes: Int64 = 10, value: Double,
        source: String = "Apple Watch"
    ) -> Sample {
        let startInstant = TimestampParser.parse(start)!.instant
        let end = startInstant.adding(seconds: minutes * 60)
        return Sample(
            id: ContentID(
                metric: metric, source: source, start: startInstant, end: end, value: "\(value)", unit: nil),
            metric: metric, sourceName: source, start: startInstant, end: end, utcOffsetSeconds: 0,
            value: value)
    }

    /// `count` heart-rate samples, a minute apart, starting `first` minutes into the fixture day.
    static func heartRates(_ count: Int, first: Int = 0, value: Double = 60) -> [Sample] {
        (first..<first + count).map { RecordFixtures.sample(index: $0, value: value) }
    }

    static func hex(_ samples: [Sample]) -> Set<String> {
        Set(samples.map { $0.id.description.lowercased() })
    }

    /// The store's rejected items: sample id (hex) → reason.
    static func rejections(_ store: Store) throws -> [String: String] {
        let connection = try SQLiteConnection(path: store.directory.databasePath)
        let statement = try connection.prepare("SELECT lower(hex(item_id)), reason FROM upload_rejections")
        var result: [String: String] = [:]
        while try statement.step() { result[statement.text(0) ?? ""] = statement.text(1) ?? "" }
        return result
    }

    static func day(_ text: String) -> CivilDate { CivilDate(text: text)! }

    /// Waits (at most `seconds`) until every exchange of `server` has finished.
    static func settle(_ server: FaultInjectingServer, seconds: Double = 10) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while server.exchanges.contains(where: { $0.finished == nil }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// A count several threads add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
