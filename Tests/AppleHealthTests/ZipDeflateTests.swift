import Foundation
import HealthETLTestSupport
import Testing

@testable import HealthETLZip

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

/// Raw deflate (as ZIP stores it) through the package's deflater, one block at a time.
final class ZipTestDeflater {
    private let deflater: ZipDeflater
    private var block = [UInt8](repeating: 0, count: 1 << 16)
    private(set) var output: [UInt8] = []
    private(set) var crc: UInt32 = 0

    /// - Parameter level: zlib's, -1 for its default.
    init(level: Int32 = -1) {
        do {
            deflater = try ZipDeflater(level: level)
        } catch {
            preconditionFailure("cannot start deflate: \(error)")
        }
    }

    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        let deflater = ZipTestDeflater()
        bytes.withUnsafeBytes { deflater.append($0) }
        return deflater.finish()
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        ZipCRC32.checksum(bytes)
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
        return (compressed, deflater.crc)
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        crc = ZipCRC32.update(crc, with: bytes)
        deflater.setInput(bytes)
        while deflater.availableInput > 0 {
            _ = pump(finishing: false)
        }
    }

    func finish() -> [UInt8] {
        while pump(finishing: true) != .streamEnd {}
        return output
    }

    private func pump(finishing: Bool) -> ZipDeflater.Status {
        let (status, produced) = block.withUnsafeMutableBytes {
            deflater.deflate(into: $0, finishing: finishing)
        }
        if case .failed(let code) = status { preconditionFailure("deflate: \(code)") }
        output += block[0..<produced]
        return status
    }
}
