import AppleHealth
import CZlib
import Foundation
import HealthETLTestSupport
import Testing

/// Deflated entries of every shape read back byte for byte, whatever the chunk size.
@Suite struct ZipDeflateTests {
    @Test(arguments: [0, 1, 100, 65_536, 1_000_003])
    func deflatedEntryReadsBackExactly(size: Int) throws {
        let directory = TemporaryDirectory("zip-deflate")
        let content = ZipTestData.text(bytes: size)
        var builder = ZipFixtureBuilder()
        let deflated = ZipTestDeflater.compress(content)
        builder.addCompressed(
            "data.txt", compressed: deflated, crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(size)
        )
        let archive = try ZipTestData.open(builder, in: directory)

        let entry = try #require(archive.entries.first)
        #expect(entry.method == 8)
        #expect(entry.compressedSize == UInt64(deflated.count))
        #expect(try archive.contents(of: entry) == content)
    }

    @Test(arguments: [1, 7, 4096, 1 << 20])
    func chunksNeverExceedTheRequestedSize(chunkSize: Int) throws {
        let directory = TemporaryDirectory("zip-deflate")
        let content = ZipTestData.text(bytes: 300_000)
        var builder = ZipFixtureBuilder()
        builder.addCompressed(
            "a.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        builder.addStored("b.xml", content)
        let archive = try ZipTestData.open(builder, in: directory)

        for entry in archive.entries {
            var largest = 0
            var collected: [UInt8] = []
            try archive.read(entry, chunkSize: chunkSize) { chunk in
                largest = max(largest, chunk.count)
                collected.append(contentsOf: chunk)
            }
            #expect(largest <= chunkSize, "entry \(entry.name)")
            #expect(collected == content, "entry \(entry.name)")
        }
    }

    @Test func prefixStopsEarlyAndCoversShortEntries() throws {
        let directory = TemporaryDirectory("zip-deflate")
        let content = ZipTestData.text(bytes: 200_000)
        var builder = ZipFixtureBuilder()
        builder.addCompressed(
            "long.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        builder.addStored("short.txt", "tiny")
        let archive = try ZipTestData.open(builder, in: directory)

        #expect(try archive.prefix(of: archive.entries[0], count: 1000) == Array(content.prefix(1000)))
        #expect(try archive.prefix(of: archive.entries[0], count: 0) == [])
        #expect(try archive.prefix(of: archive.entries[1], count: 1000) == Array("tiny".utf8))
        #expect(try archive.prefix(of: archive.entries[1], count: 2) == Array("ti".utf8))
        #expect(try archive.prefix(of: archive.entries[1], count: .max) == Array("tiny".utf8))
    }

    @Test func entriesWithDataDescriptorsUseTheCentralSizes() throws {
        let directory = TemporaryDirectory("zip-deflate")
        let content = ZipTestData.text(bytes: 5000)
        var builder = ZipFixtureBuilder()
        let deflated = builder.addCompressed(
            "streamed.xml", compressed: ZipTestDeflater.compress(content),
            crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        builder.entries[deflated].dataDescriptor = true
        let stored = builder.addStored("streamed.txt", content)
        builder.entries[stored].dataDescriptor = true
        let archive = try ZipTestData.open(builder, in: directory)

        for entry in archive.entries {
            #expect(entry.uncompressedSize == 5000)
            #expect(try archive.contents(of: entry) == content)
        }
    }
}

/// Fixture content and archive plumbing shared by the ZIP reader's tests.
enum ZipTestData {
    /// `bytes` bytes of Health-export-like XML, different on every line.
    static func text(bytes: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes + 200)
        var line = 0
        while out.count < bytes {
            out += Array(
                (" <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" "
                    + "startDate=\"2024-03-\(10 + line % 19) 08:\(10 + line % 50):\(10 + line % 49) +0100\" "
                    + "value=\"\(60 + line % 71)\"/>\n").utf8)
            line += 1
        }
        return Array(out.prefix(bytes))
    }

    /// Writes the builder's archive into `directory` and opens it.
    static func open(
        _ builder: ZipFixtureBuilder, in directory: TemporaryDirectory, name: String = "fixture.zip",
        limits: ZipLimits = ZipLimits()
    ) throws -> ZipArchive {
        try builder.write(to: directory.child(name))
        return try ZipArchive(path: directory.child(name), limits: limits)
    }

    /// Writes raw archive bytes into `directory`, returning the path.
    static func write(_ bytes: [UInt8], in directory: TemporaryDirectory, name: String = "fixture.zip") throws
        -> String
    {
        let path = directory.child(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The ZipError `body` throws; records an issue if it throws nothing or something else.
    static func zipError(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) -> ZipError? {
        do {
            try body()
            Issue.record("expected a ZipError, but nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as ZipError {
            return error
        } catch {
            Issue.record("expected a ZipError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }
}

extension ZipArchive {
    /// The entry's whole content, for tests on small entries.
    func contents(of entry: ZipEntry, chunkSize: Int = 1 << 20) throws -> [UInt8] {
        var out: [UInt8] = []
        try read(entry, chunkSize: chunkSize) { out.append(contentsOf: $0) }
        return out
    }
}

/// Raw deflate (as ZIP stores it) through zlib, one block at a time.
final class ZipTestDeflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var block = [UInt8](repeating: 0, count: 1 << 16)
    private(set) var output: [UInt8] = []
    private(set) var crc: UInt = CZlib.crc32(0, nil, 0)

    init(level: Int32 = Z_DEFAULT_COMPRESSION) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let result = deflateInit2_(
            stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        precondition(result == Z_OK, "deflateInit2_ failed: \(result)")
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        let deflater = ZipTestDeflater()
        bytes.withUnsafeBytes { deflater.append($0) }
        return deflater.finish()
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, UInt32($0.count)) })
    }

    /// Deflates `count` zero bytes a megabyte at a time, never holding more than that.
    static func zeros(count: UInt64) -> (compressed: [UInt8], crc32: UInt32) {
        let deflater = ZipTestDeflater(level: 9)
        let megabyte = [UInt8](repeating: 0, count: 1 << 20)
        var remaining = count
        megabyte.withUnsafeBytes { buffer in
            while remaining > 0 {
                let piece = Int(min(remaining, UInt64(buffer.count)))
                deflater.append(UnsafeRawBufferPointer(rebasing: buffer[0..<piece]))
                remaining -= UInt64(piece)
            }
        }
        let compressed = deflater.finish()
        return (compressed, UInt32(deflater.crc))
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        crc = CZlib.crc32(crc, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), UInt32(bytes.count))
        stream.pointee.next_in = UnsafeMutablePointer(
            mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(bytes.count)
        while stream.pointee.avail_in > 0 {
            _ = pump(flush: Z_NO_FLUSH)
        }
    }

    func finish() -> [UInt8] {
        while pump(flush: Z_FINISH) != Z_STREAM_END {}
        return output
    }

    private func pump(flush: Int32) -> Int32 {
        let (result, produced) = block.withUnsafeMutableBufferPointer { buffer in
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = UInt32(buffer.count)
            let result = deflate(stream, flush)
            return (result, buffer.count - Int(stream.pointee.avail_out))
        }
        precondition(result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR, "deflate: \(result)")
        output += block[0..<produced]
        return result
    }
}
