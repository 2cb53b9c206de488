import HealthETLCore
import Synchronization
import Testing

@testable import HealthETLServer

/// The hub's memory of recent changes and its subscriber limits: what a stream may send without
/// reading the database, and when it must.
struct ChangeHubTests {
    static func change(_ seq: Int64) -> FeedChange { FeedChange(seq: seq, keys: [.everything]) }

    @Test func recentChangesAreGivenOnlyWithoutAGapAfterTheCursor() {
        let hub = ChangeHub()
        #expect(hub.recent(user: "a", after: 0) == [])
        // Answered out of order: 2 before 1.
        hub.publish(user: "a", change: Self.change(2))
        #expect(hub.recent(user: "a", after: 0) == nil)  // 1 is missing: read the database
        #expect(hub.recent(user: "a", after: 1)?.map(\.seq) == [2])
        hub.publish(user: "a", change: Self.change(1))
        #expect(hub.recent(user: "a", after: 0)?.map(\.seq) == [1, 2])
        // Another collector committed 3: memory has 4 but cannot say what 3 was.
        hub.publish(user: "a", change: Self.change(4))
        #expect(hub.recent(user: "a", after: 0)?.map(\.seq) == [1, 2])
        #expect(hub.recent(user: "a", after: 2) == nil)
        #expect(hub.recent(user: "a", after: 4) == [])
        #expect(hub.recent(user: "b", after: 0) == [])
    }

    @Test func memoryKeepsTheLatestChangesOnly() {
        let hub = ChangeHub()
        for seq in 1...Int64(ChangeHub.recentPerUser + 10) { hub.publish(user: "a", change: Self.change(seq)) }
        #expect(hub.recent(user: "a", after: 5) == nil)
        #expect(hub.recent(user: "a", after: 10)?.count == ChangeHub.recentPerUser)
    }

    @Test func subscribersAreBoundedPerUserAndWokenOnlyByTheirUsersCommits() async {
        let hub = ChangeHub(maximumPerUser: 2)
        let closed = Atomic<Int>(0)
        let a1 = hub.subscribe(user: "a") { closed.add(1, ordering: .relaxed) }
        let a2 = hub.subscribe(user: "a") {}
        #expect(a1 != nil && a2 != nil)
        #expect(hub.subscribe(user: "a") {} == nil)
        let b = hub.subscribe(user: "b") {}
        #expect(b != nil)
        _ = a1?.takeChanged()
        _ = b?.takeChanged()
        hub.publish(user: "a", change: Self.change(1))
        #expect(a1?.takeChanged() == true && b?.takeChanged() == false)
        // A subscriber stuck in a write past the timeout has its connection closed at the next tick.
        let stuck = ChangeHub(maximumPerUser: 1, writeTimeout: .milliseconds(1))
        let writer = stuck.subscribe(user: "a") { closed.add(1, ordering: .relaxed) }
        await writer?.timing {
            try? await Task.sleep(for: .milliseconds(20))
            stuck.tick()
        }
        #expect(closed.load(ordering: .relaxed) == 1)
        if let a2 { hub.unsubscribe(a2) }
        #expect(hub.subscribe(user: "a") {} != nil)
        hub.close()
        #expect(hub.subscribe(user: "c") {} == nil)
    }
}
