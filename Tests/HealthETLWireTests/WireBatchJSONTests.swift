import Foundation
import HealthETLCore
import HealthETLWire
import Testing

/// The hand-written batch JSON decodes to the same batch, whatever the fields hold.
@Suite struct WireBatchJSONTests {
    @Test func itRoundTripsThroughJSONDecoder() throws {
        let samples = [
            WireSample(
                id: "0123456789abcdef0123456789abcdef", metric: "heart_rate", source: "Anna’s \"Watch\"\\\n\t\u{1}",
                sourceVersion: "10.1", device: "<<HKDevice: 0x1>>", start: "2026-01-01T00:00:00.000Z",
                end: "2026-01-01T00:00:00.000Z", utcOffsetSeconds: -28_800, timeZone: "America/Los_Angeles",
                value: 61.25,
                userEntered: true, flags: ["out_of_plausible_range", "future_dated"]),
            WireSample(
                id: "fedcba9876543210fedcba9876543210", metric: "sleep_analysis", source: "Watch",
                start: "2026-01-01T00:00:00Z",
                end: "2026-01-01T01:00:00Z", category: "asleep_core", restoresDeletionAt: "2026-01-03T00:00:00Z"),
            WireSample(
                id: "00000000000000000000000000000001", metric: "step_count", source: "Phone",
                start: "2026-01-01T00:00:00Z",
                end: "2026-01-01T00:01:00Z", value: 1e-7, userEntered: false),
        ]
        let batch = WireBatch(
            batchID: "b1-x", samples: samples,
            deletions: [
                WireDeletion(
                    id: "00000000000000000000000000000002", metric: "step_count", start: "2026-01-01T00:00:00Z"),
                WireDeletion(
                    id: "00000000000000000000000000000003", metric: "step_count", start: "2026-01-01T00:00:00Z",
                    deletedAt: "2026-01-02T00:00:00Z"),
            ])
        let decoded = try JSONDecoder().decode(WireBatch.self, from: Data(batch.jsonBytes()))
        #expect(decoded == batch)
        let empty = WireBatch(batchID: "e", samples: [], deletions: [])
        #expect(try JSONDecoder().decode(WireBatch.self, from: Data(empty.jsonBytes())) == empty)
    }
}
