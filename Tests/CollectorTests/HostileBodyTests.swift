import CollectorSink
import Foundation
import HTTPTypes
import HealthETLCore
import HealthETLWire
import Testing

/// zstd bodies, size limits and malformed JSON (reliability P6): a 4xx with a reason, the
/// server still answering, nothing stored.
@Suite struct HostileBodyTests {
    let harness = try! CollectorHarness()
    static let sample = WireFixtures.sample(
        "heart_rate", source: "Watch", start: "2026-03-01T08:00:00Z", end: "2026-03-01T08:00:00Z", value: 64)

    @Test(arguments: CollectorBackend.allCases) func aValidZstdBodyIsStored(_ backend: CollectorBackend) async throws {
        try await harness.run(on: backend) { client in
            let response = try await client.post(WireFixtures.batch("z", [Self.sample]), zstd: true)
            #expect(response.status == .ok)
            #expect(response.batchResponse?.accepted == 1)
            #expect(try await client.daily("heart_rate", "2026-03-01", "2026-03-01").map(\.avg) == [64])
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aCorruptOrTruncatedFrameIs400(_ backend: CollectorBackend)
        async throws
    {
        try await harness.run(on: backend) { client in
            let body = Array(try JSONEncoder().encode(WireFixtures.batch("z", [Self.sample])))
            var frame = try ZstdFrame.compress(body, level: 3)
            let truncated = Array(frame.dropLast(6))
            // zstd frames carry no checksum by default: break the magic number, not the payload.
            frame[0] ^= 0xFF
            for bytes in [frame, truncated, Array("not zstd at all".utf8)] {
                var headers = BatchHeaders.make(key: "z")
                headers[.contentEncoding] = "zstd"
                let response = try await client.execute(
                    uri: "/v1/batches", method: .post, headers: headers, body: .init(bytes: bytes))
                #expect(response.status == .badRequest)
                #expect(response.errorCode == "invalid_zstd")
            }
            #expect(try await client.daily("heart_rate", "2026-03-01", "2026-03-01").isEmpty)
            #expect(try await client.get("/v1/healthz", token: nil).status == .ok)
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aBombOverTheLimitIs413(_ backend: CollectorBackend) async throws {
        // 64 MiB of zeros compress to a few KiB; the limit here is 8 MiB.
        try await harness.run(on: backend, maximumDecodedBytes: 8 << 20) { client in
            let bomb = try ZstdFrame.compress([UInt8](repeating: 0x20, count: 64 << 20), level: 19)
            #expect(bomb.count < 64 << 10)
            var headers = BatchHeaders.make(key: "bomb")
            headers[.contentEncoding] = "zstd"
            let response = try await client.execute(
                uri: "/v1/batches", method: .post, headers: headers, body: .init(bytes: bomb))
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "body_too_large")
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aBodyOverTheLimitIs413(_ backend: CollectorBackend) async throws {
        try await harness.run(on: backend, maximumBodyBytes: 1 << 20) { client in
            let samples = (0..<12_000).map { index in
                WireFixtures.sample(
                    "heart_rate", source: "Watch \(index)", start: "2026-03-01T08:00:00Z", end: "2026-03-01T08:00:00Z",
                    value: 64)
            }
            let response = try await client.post(WireFixtures.batch("big", samples))
            #expect(response.status == .contentTooLarge)
            #expect(try await client.daily("heart_rate", "2026-03-01", "2026-03-01").isEmpty)
        }
    }

    @Test(arguments: [
        ("{", "invalid_batch"),
        ("[]", "invalid_batch"),
        ("{\"batch_id\":\"j\",\"samples\":{},\"deletions\":[]}", "invalid_batch"),
        ("{\"batch_id\":\"j\",\"deletions\":[]}", "invalid_batch"),
        (
            "{\"batch_id\":\"j\",\"samples\":[{\"id\":\"00\",\"metric\":\"heart_rate\",\"source\":\"W\",\"start\":\"x\",\"end\":\"y\",\"value\":\"64\"}],\"deletions\":[]}",
            "invalid_batch"
        ),
        ("\u{FF}\u{FE}", "invalid_batch"),
    ])
    func malformedOrWrongTypedJSONIs400WithAReason(body: String, code: String) async throws {
        try await harness.run { client in
            let response = try await client.post(Array(body.utf8), key: "j")
            #expect(response.status == .badRequest)
            #expect(response.errorCode == code)
            #expect(!(response.json["message"] as? String ?? "").isEmpty)
            #expect(try await client.daily("heart_rate", "2026-03-01", "2026-03-01").isEmpty)
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aWrongTypeNamesTheFieldButNotTheValue(_ backend: CollectorBackend)
        async throws
    {
        try await harness.run(on: backend) { client in
            let body =
                #"{"batch_id":"t","samples":[{"id":"00","metric":"heart_rate","source":"W","start":"2026-03-01T08:00:00Z","end":"2026-03-01T08:00:00Z","value":"sixty-four"}],"deletions":[]}"#
            let response = try await client.post(Array(body.utf8), key: "t")
            let message = response.json["message"] as? String ?? ""
            #expect(message.contains("samples[0].value"))
            #expect(!message.contains("sixty-four"))
        }
    }

    @Test(arguments: CollectorBackend.allCases) func otherMediaTypesAndEncodingsAre415(_ backend: CollectorBackend)
        async throws
    {
        try await harness.run(on: backend) { client in
            let body = Array(try JSONEncoder().encode(WireFixtures.batch("m", [Self.sample])))
            #expect(try await client.post(body, key: "m", contentType: "text/plain").status == .unsupportedMediaType)
            var headers = BatchHeaders.make(key: "m")
            headers[.contentEncoding] = "gzip"
            #expect(
                try await client.execute(uri: "/v1/batches", method: .post, headers: headers, body: .init(bytes: body))
                    .status == .unsupportedMediaType)
        }
    }
}
