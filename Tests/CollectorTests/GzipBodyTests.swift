import CZlib
import Testing

@testable import HealthETLServer

/// `Content-Encoding: gzip` bodies for `healthetl receive`: read whole, refused past the limit
/// (a small bomb), and refused when truncated, corrupt or followed by other bytes.
@Suite struct GzipBodyTests {
    /// `bytes` gzip-compressed with zlib itself.
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        #expect(
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                #expect(deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }

    @Test func aBodyComesBackWhole() throws {
        let text = Array(String(repeating: #"{"qty":1,"date":"2024-02-06 14:00:00 -0800"},"#, count: 5_000).utf8)
        #expect(try GzipBody.decompress(Self.gzip(text), limit: 1 << 20) == text)
    }

    @Test func aBombIsRefusedAtTheLimit() {
        let bomb = Self.gzip([UInt8](repeating: 0x20, count: 8 << 20))
        #expect(bomb.count < 64 << 10)
        #expect(throws: GzipBody.Failure.tooLarge) { try GzipBody.decompress(bomb, limit: 1 << 20) }
    }

    /// As the receiver decodes a body: piece by piece as it arrives, a bounded chunk handed on at a time.
    @Test(arguments: [1, 7, 4_096, 1 << 20]) func aBodyFedInPiecesComesBackWhole(_ piece: Int) throws {
        let text = Array(String(repeating: #"{"qty":1,"date":"2024-02-06 14:00:00 -0800"},"#, count: 5_000).utf8)
        let compressed = Self.gzip(text)
        let body = try GzipBody(limit: 1 << 20)
        var output: [UInt8] = []
        var largest = 0
        for start in stride(from: 0, to: compressed.count, by: piece) {
            try compressed[start..<min(start + piece, compressed.count)].withUnsafeBytes { bytes in
                try body.feed(bytes) { chunk in
                    largest = max(largest, chunk.count)
                    output += chunk
                }
            }
        }
        try body.finish()
        #expect(output == text)
        #expect(largest <= GzipBody.chunkBytes)
    }

    @Test func aBombFedInPiecesStopsAtTheLimit() throws {
        let bomb = Self.gzip([UInt8](repeating: 0x20, count: 8 << 20))
        let body = try GzipBody(limit: 1 << 20)
        var handedOn = 0
        #expect(throws: GzipBody.Failure.tooLarge) {
            for start in stride(from: 0, to: bomb.count, by: 512) {
                try bomb[start..<min(start + 512, bomb.count)].withUnsafeBytes { bytes in
                    try body.feed(bytes) { handedOn += $0.count }
                }
            }
        }
        #expect(handedOn <= 1 << 20)
    }

    @Test func damagedStreamsAreCorrupt() {
        let whole = Self.gzip(Array("{\"data\": {}}".utf8))
        for damaged in [Array(whole.prefix(whole.count - 5)), whole + [0x1F, 0x8B], Array("{\"data\": {}}".utf8), []] {
            #expect {
                try GzipBody.decompress(damaged, limit: 1 << 20)
            } throws: { error in
                if case GzipBody.Failure.corrupt = error { return true }
                return false
            }
        }
    }
}
