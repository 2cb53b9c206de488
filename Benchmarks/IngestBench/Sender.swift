import AsyncHTTPClient
import Foundation
import HealthETLCore
import HealthETLWire

/// One batch's round trip.
struct BatchResult: Sendable {
    let index: Int
    /// Seconds from handing the request to the client to having the whole response body.
    let latency: Double
    let status: Int
    /// Why the batch does not count as stored, nil when the collector accepted every sample.
    let failure: String?
}

/// Hands out batch indexes to the workers, one at a time, until they run out or a batch fails.
private actor Dispenser {
    private var next = 0
    private let count: Int
    private var stopped = false

    init(count: Int) { self.count = count }

    func take() -> Int? {
        guard !stopped, next < count else { return nil }
        defer { next += 1 }
        return next
    }

    func stop() { stopped = true }
}

/// POSTs the corpus with `concurrency` requests in flight over as many kept-alive connections.
enum Sender {
    struct Run: Sendable {
        let results: [BatchResult]
        let wallSeconds: Double
        /// This process's user + system CPU time while sending (all its threads).
        let cpuSeconds: Double
    }

    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func run(_ corpus: Corpus, options: Options) async throws -> Run {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(300), concurrentHTTP1ConnectionsPerHostSoftLimit: options.concurrency)
        configuration.decompression = .disabled
        configuration.redirectConfiguration = .disallow
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            let run = try await send(corpus, options: options, client: client)
            try await client.shutdown()
            return run
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private static func send(_ corpus: Corpus, options: Options, client: HTTPClient) async throws -> Run {
        // Open the connections before the clock starts: one health check per connection, at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<options.concurrency {
                group.addTask {
                    var request = HTTPClientRequest(url: options.url + "/v1/healthz")
                    request.method = .GET
                    let response = try await client.execute(request, timeout: .seconds(30))
                    for try await _ in response.body {}
                    guard response.status.code == 200 else {
                        throw BenchFailure(
                            "GET /v1/healthz answered \(response.status.code): is \(options.url) a healthetl collector?"
                        )
                    }
                }
            }
            try await group.waitForAll()
        }

        let dispenser = Dispenser(count: corpus.bodies.count)
        let started = ContinuousClock.now
        let cpuBefore = processCPUSeconds()
        let results = try await withThrowingTaskGroup(of: [BatchResult].self) { group in
            for _ in 0..<options.concurrency {
                group.addTask {
                    var mine: [BatchResult] = []
                    while let index = await dispenser.take() {
                        let result = try await post(
                            corpus.bodies[index], index: index, options: options, client: client)
                        mine.append(result)
                        if result.failure != nil { await dispenser.stop() }
                    }
                    return mine
                }
            }
            var all: [BatchResult] = []
            for try await some in group { all += some }
            return all
        }
        let wall = (ContinuousClock.now - started).seconds
        let cpu = processCPUSeconds() - cpuBefore
        return Run(results: results.sorted { $0.index < $1.index }, wallSeconds: wall, cpuSeconds: cpu)
    }

    private static func post(_ body: Corpus.Body, index: Int, options: Options, client: HTTPClient)
        async throws -> BatchResult
    {
        var request = HTTPClientRequest(url: options.url + "/v1/batches")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(options.token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Content-Encoding", value: "zstd")
        request.headers.add(name: "Idempotency-Key", value: body.batchID)
        request.body = .bytes(body.compressed)

        let started = ContinuousClock.now
        let response = try await client.execute(request, timeout: .seconds(options.timeoutSeconds))
        var bytes: [UInt8] = []
        for try await chunk in response.body { bytes.append(contentsOf: chunk.readableBytesView) }
        let latency = (ContinuousClock.now - started).seconds

        let status = Int(response.status.code)
        func failed(_ why: String) -> BatchResult {
            let text = String(decoding: bytes.prefix(400), as: UTF8.self)
            return BatchResult(
                index: index, latency: latency, status: status,
                failure: "batch \(body.batchID): \(why); body: \(text)")
        }
        guard status == 200 else { return failed("HTTP \(status), expected 200") }
        guard let answer = try? JSONDecoder().decode(WireBatchResponse.self, from: Data(bytes)) else {
            return failed("the 200 response is not a WireBatchResponse")
        }
        guard answer.batchID == body.batchID else {
            return failed("the response is for batch \(answer.batchID)")
        }
        guard answer.accepted == body.samples, answer.rejected.isEmpty else {
            let reasons = Dictionary(grouping: answer.rejected, by: \.reason).mapValues(\.count)
            return failed(
                "accepted \(answer.accepted) of \(body.samples) samples, rejected \(answer.rejected.count) \(reasons)"
            )
        }
        return BatchResult(index: index, latency: latency, status: status, failure: nil)
    }
}
