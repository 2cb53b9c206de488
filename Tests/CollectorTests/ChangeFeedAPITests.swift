import CollectorSink
import Foundation
import HTTPTypes
import HealthETLCore
import HealthETLServer
import HealthETLTestSupport
import HealthETLWire
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The change feed (`/v1/changes`, `/v1/changes/stream`), the projections' ETags and the insights
/// endpoint, on both storages.
@Suite(.serialized) struct ChangeFeedAPITests {
    static func steps(_ day: String, _ value: Double, source: String = "iPhone") -> WireSample {
        WireFixtures.sample(
            "step_count", source: source, start: "\(day)T10:00:00Z", end: "\(day)T10:10:00Z", value: value)
    }

    static func heartRate(_ day: String, _ value: Double) -> WireSample {
        WireFixtures.sample(
            "heart_rate", source: "Watch", start: "\(day)T09:00:00Z", end: "\(day)T09:00:00Z", value: value)
    }

    @Test(arguments: CollectorBackend.allCases)
    func eachStoredBatchAdvancesItsUsersFeedWithTheKeysItChanged(_ backend: CollectorBackend) async throws {
        let harness = try CollectorHarness()
        try await harness.run(on: backend) { client in
            #expect(try await client.page(since: 0).changes.isEmpty)
            #expect(try await client.post(WireFixtures.batch("b1", [Self.steps("2026-01-05", 500)])).status == .ok)
            let page = try await client.page(since: 0)
            #expect(page.changes.map(\.seq) == [1] && page.next == 1 && page.head == 1 && !page.more)
            let keys = try #require(page.changes.first?.keys)
            let daily = keys.compactMap { key -> ClosedRange<CivilDate>? in
                if case .daily("step_count", let days) = key { return days }
                return nil
            }
            // The day in every zone on Earth: the day before and after too.
            #expect(daily == [CivilDate(text: "2026-01-04")!...CivilDate(text: "2026-01-06")!])
            #expect(keys.contains { if case .insights = $0 { true } else { false } })
            #expect(!keys.contains { if case .sleep = $0 { true } else { false } })

            // A replay, and a batch of nothing but rejected items, change nothing.
            #expect(try await client.post(WireFixtures.batch("b1", [Self.steps("2026-01-05", 500)])).status == .ok)
            var bad = Self.steps("2026-01-06", 1)
            bad.metric = "no_such_metric"
            #expect(try await client.post(WireFixtures.batch("b2", [bad])).status == .ok)
            #expect(try await client.page(since: 0).head == 1)

            // Bob's batch is bob's change: alice's feed does not move, and bob never sees hers.
            #expect(
                try await client.post(
                    WireFixtures.batch("b1", [Self.steps("2026-02-01", 900)]), token: CollectorHarness.bob
                ).status == .ok)
            #expect(try await client.page(since: 0).head == 1)
            let bobs = try await client.page(since: 0, token: CollectorHarness.bob)
            #expect(bobs.changes.count == 1)
            #expect(
                bobs.changes.flatMap(\.keys).allSatisfy { key in
                    if case .daily(_, let days) = key { return days.contains(CivilDate(text: "2026-02-01")!) }
                    return true
                })
            #expect(try await client.get("/v1/changes?since=0", token: nil).status == .unauthorized)
            #expect(try await client.get("/v1/changes/stream", token: nil).status == .unauthorized)
            #expect(try await client.get("/v1/changes?since=-1").status == .badRequest)
            #expect(try await client.get("/v1/changes?limit=0").status == .badRequest)
        }
    }

    @Test(arguments: CollectorBackend.allCases)
    func pagesFollowEachOtherAndAFutureCursorIsGone(_ backend: CollectorBackend) async throws {
        let harness = try CollectorHarness()
        try await harness.run(on: backend) { client in
            for index in 1...5 {
                let batch = WireFixtures.batch("b\(index)", [Self.steps("2026-01-0\(index)", Double(index))])
                #expect(try await client.post(batch).status == .ok)
            }
            var seen: [Int64] = []
            var since: Int64 = 0
            var pages = 0
            while true {
                let page = try await client.page(since: since, limit: 2)
                seen += page.changes.map(\.seq)
                since = page.next
                pages += 1
                if !page.more { break }
            }
            #expect(seen == [1, 2, 3, 4, 5] && pages == 3)
            let ahead = try await client.get("/v1/changes?since=9")
            #expect(ahead.status == .gone && ahead.errorCode == "resync" && ahead.json["head"] as? Int == 5)
        }
    }

    @Test(arguments: CollectorBackend.allCases)
    func changesPastTheRetentionWindowAreGoneAndTheHeadIsSaid(_ backend: CollectorBackend) async throws {
        let harness = try CollectorHarness()
        try await harness.run(on: backend, adjust: { $0.changeRetention = .seconds(1) }) { client in
            #expect(try await client.post(WireFixtures.batch("old", [Self.steps("2026-01-05", 500)])).status == .ok)
            // Pruned within a tick or two after it is older than a second.
            let gone = try await withDeadline(seconds: 10) {
                while true {
                    let response = try await client.get("/v1/changes?since=0")
                    if response.status == .gone { return response }
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            #expect(gone.errorCode == "resync" && gone.json["head"] as? Int == 1)
            // From the head the feed goes on.
            #expect(try await client.page(since: 1).changes.isEmpty)
            #expect(try await client.post(WireFixtures.batch("new", [Self.steps("2026-01-06", 5)])).status == .ok)
            #expect(try await client.page(since: 1).changes.map(\.seq) == [2])
        }
    }

    @Test(arguments: CollectorBackend.allCases)
    func projectionsAnswer304UntilAChangeTouchesWhatTheyRead(_ backend: CollectorBackend) async throws {
        let harness = try CollectorHarness()
        try await harness.run(on: backend) { client in
            #expect(try await client.post(WireFixtures.batch("b1", [Self.steps("2026-01-05", 500)])).status == .ok)
            let january = "/v1/projections/daily?metric=step_count&from=2026-01-01&to=2026-01-31"
            let first = try await client.get(january)
            let etag = try #require(first.headers[.eTag])
            #expect(first.status == .ok && etag.hasPrefix("\"p1-1-"))
            let again = try await client.get(january, ifNoneMatch: etag)
            #expect(again.status == .notModified && again.body.readableBytes == 0 && again.headers[.eTag] == etag)
            #expect(try await client.get(january, ifNoneMatch: "W/\(etag)").status == .notModified)
            #expect(try await client.get(january, ifNoneMatch: "\"other\", \(etag)").status == .notModified)

            // Another metric, and steps in another month, leave January's steps alone.
            #expect(try await client.post(WireFixtures.batch("b2", [Self.heartRate("2026-01-05", 60)])).status == .ok)
            #expect(try await client.post(WireFixtures.batch("b3", [Self.steps("2026-03-10", 70)])).status == .ok)
            #expect(try await client.get(january, ifNoneMatch: etag).status == .notModified)
            // The same scope for bob is another user's: his tag differs.
            let bobs = try await client.get(january, token: CollectorHarness.bob)
            #expect(bobs.status == .ok && bobs.headers[.eTag] != etag)

            // Steps in January change the answer and its tag.
            #expect(try await client.post(WireFixtures.batch("b4", [Self.steps("2026-01-20", 30)])).status == .ok)
            let changed = try await client.get(january, ifNoneMatch: etag)
            #expect(changed.status == .ok && changed.headers[.eTag] != etag)
            let days = try JSONDecoder().decode(DailyBody.self, from: Data(buffer: changed.body)).days
            #expect(days.map(\.day) == ["2026-01-05", "2026-01-20"])

            // Sleep and insights carry tags too; a new source order changes every tag and is a
            // change of everything in the feed.
            let sleep = try await client.get("/v1/projections/sleep?from=2026-01-01&to=2026-01-31")
            let insights = try await client.get("/v1/projections/insights?from=2026-01-01&to=2026-01-31")
            let tags = [changed.headers[.eTag], sleep.headers[.eTag], insights.headers[.eTag]]
            #expect(tags.allSatisfy { $0 != nil })
            #expect(try await client.putPriority(["Watch"]).status == .ok)
            let after = [
                try await client.get(january).headers[.eTag],
                try await client.get("/v1/projections/sleep?from=2026-01-01&to=2026-01-31").headers[.eTag],
                try await client.get("/v1/projections/insights?from=2026-01-01&to=2026-01-31").headers[.eTag],
            ]
            #expect(zip(tags, after).allSatisfy { $0 != $1 })
            let last = try #require(try await client.page(since: 0).changes.last)
            #expect(last.keys == [.everything])
        }
    }

    @Test(arguments: CollectorBackend.allCases)
    func insightsFindAPlantedRiseInRestingHeartRate(_ backend: CollectorBackend) async throws {
        let harness = try CollectorHarness()
        try await harness.run(on: backend) { client in
            let first = CivilDate(text: "2026-01-01")!
            var samples: [WireSample] = []
            for index in 0..<60 {
                let day = first.adding(days: Int64(index)).description
                let value: Double = index == 45 || index == 46 ? 70 : 55 + Double(index % 3)
                samples.append(
                    WireFixtures.sample(
                        "resting_heart_rate", source: "Watch", start: "\(day)T12:00:00Z", end: "\(day)T12:00:00Z",
                        value: value, offset: 0))
            }
            #expect(try await client.post(WireFixtures.batch("rhr", samples)).status == .ok)
            let response = try await client.get("/v1/projections/insights?from=2026-02-01&to=2026-03-01")
            #expect(response.status == .ok)
            let body = try JSONDecoder().decode(InsightsBody.self, from: Data(buffer: response.body))
            #expect(body.insights.map(\.rule) == ["resting_heart_rate_above_usual"])
            #expect(body.insights.first?.first.description == "2026-02-15")
            #expect(body.insights.first?.last.description == "2026-02-16")
            #expect(body.days.filter { $0.metric == "resting_heart_rate" }.count == 29)
            // Bob has none of it.
            let bobs = try await client.get(
                "/v1/projections/insights?from=2026-02-01&to=2026-03-01", token: CollectorHarness.bob)
            #expect(try JSONDecoder().decode(InsightsBody.self, from: Data(buffer: bobs.body)).days.isEmpty)
        }
    }

    @Test(arguments: CollectorBackend.allCases)
    func theStreamSendsEachChangeOnceInOrderAndResumesAfterLastEventID(_ backend: CollectorBackend) async throws {
        let harness = try CollectorHarness()
        try await harness.run(on: backend, adjust: { $0.maximumStreamsPerUser = 2 }) { client in
            let port = try #require(client.port)
            #expect(try await client.post(WireFixtures.batch("b1", [Self.steps("2026-01-01", 1)])).status == .ok)
            try await Self.withSink(port: port, token: CollectorHarness.alice) { alice async throws in
                try await Self.withSink(port: port, token: CollectorHarness.bob) { bob in
                    // Alice from her feed's start, bob from now.
                    var alices = alice.changeStream(since: 0).makeAsyncIterator()
                    var bobs = bob.changeStream(since: 0).makeAsyncIterator()
                    #expect(try await Self.next(&alices) == .change(FeedChange(seq: 1, keys: try Self.keys(client, 1))))
                    for index in 2...4 {
                        let batch = WireFixtures.batch("b\(index)", [Self.steps("2026-01-0\(index)", 1)])
                        #expect(try await client.post(batch).status == .ok)
                    }
                    for seq in Int64(2)...4 {
                        guard case .change(let change) = try await Self.next(&alices) else {
                            Issue.record("expected change \(seq)")
                            return
                        }
                        #expect(change.seq == seq)
                    }
                    // Bob's stream carries bob's changes only.
                    #expect(
                        try await client.post(
                            WireFixtures.batch("x", [Self.steps("2026-05-05", 1)]), token: CollectorHarness.bob
                        ).status == .ok)
                    guard case .change(let bobsChange) = try await Self.next(&bobs) else {
                        Issue.record("bob's change did not arrive")
                        return
                    }
                    #expect(bobsChange.seq == 1)
                    #expect(
                        bobsChange.keys.allSatisfy { key in
                            if case .daily(_, let days) = key { return days.contains(CivilDate(text: "2026-05-05")!) }
                            return true
                        })

                    // Resuming after 2 gives 3 and 4 again, and nothing else.
                    var resumed = alice.changeStream(since: 2).makeAsyncIterator()
                    let three = try await Self.next(&resumed)
                    let four = try await Self.next(&resumed)
                    guard case .change(let c3) = three, case .change(let c4) = four else {
                        Issue.record("resumed stream sent \(three) and \(four)")
                        return
                    }
                    #expect([c3.seq, c4.seq] == [3, 4])
                    // Two streams are alice's limit: a third is refused with 429.
                    var third = alice.changeStream(since: 0).makeAsyncIterator()
                    do {
                        _ = try await Self.next(&third)
                        Issue.record("a third stream was served")
                    } catch let error as DeliveryError {
                        #expect("\(error)".contains("429") || "\(error)".contains("streams open"))
                    }
                }
            }
        }
    }

    @Test func aStreamBehindTheRetentionWindowIsToldToResync() async throws {
        let harness = try CollectorHarness()
        try await harness.run(adjust: { $0.changeRetention = .seconds(1) }) { client in
            let port = try #require(client.port)
            #expect(try await client.post(WireFixtures.batch("b1", [Self.steps("2026-01-01", 1)])).status == .ok)
            try await withDeadline(seconds: 10) {
                while try await client.get("/v1/changes?since=0").status != .gone {
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            try await Self.withSink(port: port, token: CollectorHarness.alice) { alice async throws in
                var events = alice.changeStream(since: 0).makeAsyncIterator()
                #expect(try await Self.next(&events) == .resync(head: 1))
            }
        }
    }

    @Test func heartbeatsKeepAQuietStreamAlive() async throws {
        let harness = try CollectorHarness()
        try await harness.run(adjust: { $0.streamHeartbeat = .milliseconds(500) }) { client in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            try await connection.send(
                "GET /v1/changes/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(CollectorHarness.alice)\r\n\r\n")
            var text = ""
            let deadline = ContinuousClock.now + .seconds(10)
            while text.components(separatedBy: ": heartbeat").count < 3 && ContinuousClock.now < deadline {
                text += try await connection.readAvailable(within: 2)
            }
            #expect(text.contains("text/event-stream") && text.contains("retry: 2000"))
            #expect(text.components(separatedBy: ": heartbeat").count >= 3)
        }
    }

    // MARK: helpers

    struct InsightsBody: Decodable {
        let days: [InsightDay]
        let insights: [Insight]
    }

    static func keys(_ client: some TestClientProtocol, _ seq: Int64) async throws -> [ChangeKey] {
        try await client.page(since: seq - 1).changes.first?.keys ?? []
    }

    static func next(_ iterator: inout AsyncThrowingStream<FeedEvent, any Error>.Iterator) async throws -> FeedEvent? {
        nonisolated(unsafe) var events = iterator
        defer { iterator = events }
        return try await withDeadline(seconds: 10) { try await events.next() }
    }

    static func withSink(port: Int, token: String, _ body: (CollectorSink) async throws -> Void) async throws {
        let configuration = try CollectorSinkConfiguration(
            endpoint: "http://127.0.0.1:\(port)", token: try CollectorToken(token), requestTimeout: .seconds(10))
        let sink = CollectorSink(configuration: configuration)
        do {
            try await body(sink)
        } catch {
            try? await sink.shutdown()
            throw error
        }
        try await sink.shutdown()
    }
}

extension TestClientProtocol {
    func page(since: Int64, limit: Int = 500, token: String = CollectorHarness.alice) async throws -> FeedPage {
        let response = try await get("/v1/changes?since=\(since)&limit=\(limit)", token: token)
        #expect(response.status == .ok)
        return try JSONDecoder().decode(FeedPage.self, from: Data(buffer: response.body))
    }

    func get(_ uri: String, ifNoneMatch: String, token: String = CollectorHarness.alice) async throws -> TestResponse {
        try await execute(
            uri: uri, method: .get, headers: [.authorization: "Bearer \(token)", .ifNoneMatch: ifNoneMatch])
    }
}
