import CZstd
import CollectorSink
import Foundation
import HealthETLCore
import HealthETLWire
import Testing

/// `encode(_:)`: the wire batch as JSON in one zstd frame.
@Suite struct EncodingTests {
    typealias F = SinkFixtures

    @Test func theBodyIsOneZstdFrameOfTheWireBatch() async throws {
        let configuration = try CollectorSinkConfiguration(
            endpoint: "http://127.0.0.1:9", token: try CollectorToken("t"), zstdLevel: 5)
        let deletion = Tombstone(
            of: F.steps[0], reason: "deleted_at_source", deletedAt: Instant(secondsSinceEpoch: 1_767_700_000))
        let batch = DeliveryBatch(batchID: "encoded", samples: F.steps, deletions: [deletion])
        let payload = try await F.withSink(configuration) { sink in try sink.encode(batch) }

        let size = payload.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
        #expect(size < 1 << 20)
        var json = [UInt8](repeating: 0, count: Int(size))
        let written = json.withUnsafeMutableBytes { target in
            payload.withUnsafeBytes {
                ZSTD_decompress(target.baseAddress, target.count, $0.baseAddress, $0.count)
            }
        }
        #expect(ZSTD_isError(written) == 0 && written == json.count)
        #expect(try JSONDecoder().decode(WireBatch.self, from: Data(json)) == WireBatch(batch))
        #expect(String(decoding: json, as: UTF8.self).hasPrefix(#"{"batch_id":"encoded","deletions":[{"#))
    }
}
