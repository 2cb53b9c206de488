import CollectorSink
import Foundation
import HealthETLCollectorSQLite
import HealthETLCore
import HealthETLSQLite
import HealthETLServer
import HealthETLTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// The shared sink conformance suite (`SinkConformance`): every registered sink passes it (the
/// collector sink, through a fault-injecting front before a real collector), so does the
/// scripted in-memory sink it is checked against, and a sink that misclassifies a refusal fails.
@Suite struct SinkConformanceTests {
    /// The collector sink; faults are played by a front that forwards to a live collector.
    struct CollectorBench: SinkTestBench {
        let collectorPort: Int
        let database: String
        let front: Front

        /// The front, made when the suite asks for its sink.
        final class Front: @unchecked Sendable {
            var server: FaultInjectingServer?
        }

        func sink(meeting faults: [SinkFault]) async throws -> any SampleSink {
            let script = faults.map { fault -> FaultInjectingServer.Action in
                switch fault {
                case .unavailable: .respond(status: 503)
                case .throttled(let seconds): .respond(status: 429, headers: ["Retry-After": "\(seconds)"])
                case .slowerThanTheTimeout: .delay(seconds: 7.5, then: .forward(to: collectorPort))
                case .refused: .json(status: 422, #"{"error":"unprocessable","message":"refused by the script"}"#)
                }
            }
            let server = try FaultInjectingServer(script: script, afterScript: .forward(to: collectorPort))
            front.server = server
            // 1 s was too short for an ordinary answer on a loaded machine; the slow fault stays
            // well past the timeout.
            let configuration = try CollectorSinkConfiguration(
                endpoint: "http://127.0.0.1:\(server.port)", token: try CollectorToken(LiveCollector.alice),
                requestTimeout: .seconds(3))
            return CollectorSink(configuration: configuration, logger: SinkFixtures.quiet)
        }

        func storedSampleIDs() async throws -> Set<ContentID> {
            let statement = try SQLiteConnection(path: database).prepare("SELECT hex(id) FROM samples")
            var ids: Set<ContentID> = []
            while try statement.step() { if let id = ContentID(hex: statement.text(0) ?? "") { ids.insert(id) } }
            return ids
        }

        func settle() async throws {
            let deadline = ContinuousClock.now + .seconds(15)
            while let server = front.server, server.exchanges.contains(where: { $0.finished == nil }),
                ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// The scripted in-memory sink.
    struct ScriptedBench: SinkTestBench {
        let farEnd: ScriptedSink.FarEnd

        func sink(meeting faults: [SinkFault]) async throws -> any SampleSink {
            ScriptedSink(farEnd: farEnd, faults: faults)
        }

        func storedSampleIDs() async throws -> Set<ContentID> { farEnd.sampleIDs }

        func settle() async throws {}
    }

    /// A sink that calls a refusal worth retrying: the queue would retry it for ever.
    struct MisclassifyingBench: SinkTestBench {
        let inner: ScriptedBench

        struct Sink: SampleSink {
            static let name = "misclassifying"
            static let summary = "the scripted sink with refusals called retryable"
            static let capabilities: SinkCapabilities = []
            let inner: any SampleSink

            static func make(_ settings: PluginSettings, environment: [String: String]) throws -> Sink {
                Sink(inner: try ScriptedSink.make(settings, environment: environment))
            }

            func encode(_ batch: DeliveryBatch) throws -> [UInt8] { try inner.encode(batch) }

            func deliver(batchID: String, payload: [UInt8]) async throws(DeliveryError) -> DeliveryReceipt {
                do {
                    return try await inner.deliver(batchID: batchID, payload: payload)
                } catch .permanent(let reason) {
                    throw .retryable(reason: reason, notBeforeSeconds: nil)
                }
            }
        }

        func sink(meeting faults: [SinkFault]) async throws -> any SampleSink {
            Sink(inner: try await inner.sink(meeting: faults))
        }

        func storedSampleIDs() async throws -> Set<ContentID> { try await inner.storedSampleIDs() }

        func settle() async throws {}
    }

    @Test func theCollectorSinkPassesTheSuite() async throws {
        let live = try LiveCollector()
        let configuration = CollectorConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: live.directory.child("data"), tokensPath: live.tokensPath)
        let storage = try SQLiteCollectorStorage(
            directory: configuration.dataDirectory, users: ["alice", "bob"], catalog: live.catalog)
        let app = try Collector.application(
            configuration: configuration, storage: storage, tokensPath: live.tokensPath, catalog: live.catalog,
            logger: SinkFixtures.quiet)
        try await app.test(.live) { client in
            let bench = CollectorBench(
                collectorPort: try #require(client.port), database: configuration.dataDirectory + "/healthetl.sqlite",
                front: CollectorBench.Front())
            let problems = try await SinkConformance.problems(of: bench)
            bench.front.server?.stop()
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    @Test func theScriptedSinkPassesTheSuite() async throws {
        let problems = try await SinkConformance.problems(
            of: ScriptedBench(farEnd: ScriptedSink.FarEnd(catalog: try MetricCatalog.bundled())))
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func aSinkThatCallsARefusalRetryableFails() async throws {
        let bench = MisclassifyingBench(
            inner: ScriptedBench(farEnd: ScriptedSink.FarEnd(catalog: try MetricCatalog.bundled())))
        let problems = try await SinkConformance.problems(of: bench)
        #expect(problems.contains("refused: classified retryable, not permanent"), "\(problems)")
    }
}
