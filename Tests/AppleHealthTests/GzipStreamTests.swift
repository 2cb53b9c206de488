import Foundation
import HealthETLTestSupport
import Testing

@testable import HealthETLZip

/// gzip streams: `Content-Encoding: gzip` bodies for `healthetl receive`, and `.fit.gz` files.
/// Read whole or in pieces, members back to back, refused past the limit (a small bomb), and
/// refused when truncated, corrupt or followed by other bytes.
@Suite struct GzipStreamTests {
    /// `bytes` as one gzip member (RFC 1952): a 10-byte header, raw deflate, CRC-32 and size.
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        member += ZipTestDeflater.compress(bytes)
        for value in [ZipTestDeflater.crc32(bytes), UInt32(truncatingIfNeeded: bytes.count)] {
            member += withUnsafeBytes(of: value.littleEndian) { Array($0) }
        }
        return member
    }

    static let text = Array(
        String(repeating: #"{"qty":1,"date":"2024-02-06 14:00:00 -0800"},"#, count: 5_000).utf8)

    /// Feeds `input` in pieces of `piece` bytes and finishes.
    static func decompress(_ input: [UInt8], piece: Int, limit: Int = 1 << 20) throws -> [UInt8] {
        let stream = try GzipStream(limit: limit)
        var output: [UInt8] = []
        for start in stride(from: 0, to: input.count, by: piece) {
            try input[start..<min(start + piece, input.count)].withUnsafeBytes { bytes in
                try stream.feed(bytes) { chunk in
                    #expect(chunk.count <= GzipStream.chunkBytes)
                    output += chunk
                }
            }
        }
        try stream.finish()
        return output
    }

    @Test func aStreamComesBackWhole() throws {
        #expect(try GzipStream.decompress(Self.gzip(Self.text), limit: 1 << 20) == Self.text)
    }

    @Test func aBombIsRefusedAtTheLimit() {
        let bomb = Self.gzip([UInt8](repeating: 0x20, count: 8 << 20))
        #expect(bomb.count < 64 << 10)
        #expect(throws: GzipStream.Failure.tooLarge) { try GzipStream.decompress(bomb, limit: 1 << 20) }
    }

    /// As the receiver decodes a body: piece by piece as it arrives, a bounded chunk handed on at a time.
    @Test(arguments: [1, 7, 4_096, 1 << 20]) func aStreamFedInPiecesComesBackWhole(_ piece: Int) throws {
        #expect(try Self.decompress(Self.gzip(Self.text), piece: piece) == Self.text)
    }

    @Test func aBombFedInPiecesStopsAtTheLimit() throws {
        let bomb = Self.gzip([UInt8](repeating: 0x20, count: 8 << 20))
        let stream = try GzipStream(limit: 1 << 20)
        var handedOn = 0
        #expect(throws: GzipStream.Failure.tooLarge) {
            for start in stride(from: 0, to: bomb.count, by: 512) {
                try bomb[start..<min(start + 512, bomb.count)].withUnsafeBytes { bytes in
                    try stream.feed(bytes) { handedOn += $0.count }
                }
            }
        }
        #expect(handedOn <= 1 << 20)
    }

    /// `cat a.gz b.gz c.gz`: one stream of the three contents, whatever the pieces; an empty
    /// member in the middle changes nothing.
    @Test(arguments: [1, 7, 4_096, 1 << 20]) func membersBackToBackReadAsOne(_ piece: Int) throws {
        let parts = [Array(Self.text.prefix(30_000)), [], Array(Self.text.dropFirst(30_000))]
        let concatenated = parts.flatMap { Self.gzip($0) }
        #expect(try Self.decompress(concatenated, piece: piece) == Self.text)
    }

    /// The limit counts every member together: many small members cannot add up past it.
    @Test func theLimitCountsAllMembers() throws {
        let member = Self.gzip([UInt8](repeating: 0x20, count: 300 << 10))
        let four = member + member + member + member
        #expect(throws: GzipStream.Failure.tooLarge) { try GzipStream.decompress(four, limit: 1 << 20) }
        #expect(try GzipStream.decompress(four, limit: 2 << 20).count == 4 * (300 << 10))
    }

    @Test func damagedStreamsAreCorrupt() {
        let whole = Self.gzip(Array("{\"data\": {}}".utf8))
        var badCRC = whole
        badCRC[badCRC.count - 6] ^= 1
        for damaged in [
            Array(whole.prefix(whole.count - 5)), whole + [0x1F, 0x8B], whole + [0, 0, 0, 0],
            whole + Array("junk".utf8),
            Array("{\"data\": {}}".utf8), [], badCRC,
        ] {
            #expect {
                try GzipStream.decompress(damaged, limit: 1 << 20)
            } throws: { error in
                if case GzipStream.Failure.corrupt = error { return true }
                return false
            }
        }
        #expect(throws: GzipStream.Failure.corrupt("bytes follow the end of the gzip stream (incorrect header check)"))
        {
            try GzipStream.decompress(whole + Array("junk".utf8), limit: 1 << 20)
        }
    }

    /// Python's `gzip` as an independent producer: a file with a name and a modification time in
    /// its header (FNAME, MTIME), and two members written one after the other.
    @Test(
        .enabled(
            if: ZipPythonFixture.isAvailable,
            "python3 is not installed, so the Python-made gzip fixtures cannot be generated"))
    func pythonMadeStreamsRead() throws {
        let directory = TemporaryDirectory("gzip-stream")
        let path = directory.child("activity.fit.gz")
        let script = """
            import gzip, sys
            path = sys.argv[1]
            data = bytes(range(256)) * 300
            with open(path, "wb") as raw:
                with gzip.GzipFile(filename="activity.fit", mode="wb", fileobj=raw, mtime=1700000000) as f:
                    f.write(data[:40000])
                with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=1) as f:
                    f.write(data[40000:])
            """
        _ = try ZipPythonFixture.run(script, arguments: [path])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let expected = Array((0..<300).flatMap { _ in (0...255).map { UInt8($0) } })
        for piece in [1, 4_096, bytes.count] {
            #expect(try Self.decompress(bytes, piece: piece) == expected)
        }
    }
}
