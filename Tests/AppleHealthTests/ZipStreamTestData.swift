import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

/// One entry as `ZipStreamReader` handed it on: its local header, and its data once verified.
struct StreamedEntry: Equatable {
    var entry: ZipStreamEntry
    var content: [UInt8]
}

/// Plumbing for the front-to-back reader's tests: feeding in pieces, collecting events,
/// reading archives inside archives, and archives written by python3 to a pipe.
enum ZipStreamTestData {
    /// The chunk sizes every format test feeds archives in: a byte at a time, an odd size, a
    /// page, and the whole archive at once.
    static let pieceSizes = [1, 7, 4_096, Int.max]

    /// Feeds `bytes` to a fresh reader `piece` bytes at a time, then finishes it.
    static func read(
        _ bytes: [UInt8], piece: Int = Int.max, limits: ZipLimits = ZipLimits(), name: String = "stream.zip"
    ) throws -> [StreamedEntry] {
        let reader = ZipStreamReader(name: name, limits: limits)
        var collector = ZipStreamCollector()
        try feed(bytes, piece: piece) { chunk in try reader.feed(chunk) { collector.take($0) } }
        try reader.finish()
        #expect(reader.bytesConsumed == UInt64(bytes.count))
        #expect(reader.hasReachedEnd)
        #expect(collector.open == nil)
        return collector.entries
    }

    /// Hands `bytes` to `body` in pieces of `piece` bytes (the last may be shorter).
    static func feed(
        _ bytes: [UInt8], piece: Int, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try bytes.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                let end = start + min(piece, all.count - start)
                try body(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }

    /// Every entry of the archive at `path` as `ZipArchive` reads it, through its central directory.
    static func readInPlace(_ path: String) throws -> [(name: String, content: [UInt8])] {
        let archive = try ZipArchive(path: path)
        return try archive.entries.map { ($0.name, try archive.contents(of: $0)) }
    }

    /// Expects the stream read of `bytes`, in every piece size, to equal `ZipArchive`'s read.
    static func expectStreamReadEqualsArchiveRead(
        _ bytes: [UInt8], in directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = try ZipTestData.write(bytes, in: directory, name: "compared.zip")
        let inPlace = try readInPlace(path)
        for piece in pieceSizes {
            let streamed = try read(bytes, piece: piece)
            #expect(
                streamed.map(\.entry.name) == inPlace.map(\.name), "piece \(piece)", sourceLocation: sourceLocation)
            #expect(
                streamed.map(\.content) == inPlace.map(\.content), "piece \(piece)", sourceLocation: sourceLocation)
        }
    }

    /// The ZipError a stream read of `bytes` throws, at `feed` or at `finish`.
    static func streamError(
        _ bytes: [UInt8], piece: Int = Int.max, limits: ZipLimits = ZipLimits(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ZipError? {
        ZipTestData.zipError(sourceLocation: sourceLocation) {
            _ = try read(bytes, piece: piece, limits: limits)
        }
    }

    /// A zipped copy of `content` under `name`: stored, deflated, or deflated with a data
    /// descriptor (signed or not), so nested fixtures mix every shape.
    static func wrap(_ content: [UInt8], as name: String, shape: Int) -> [UInt8] {
        var builder = ZipFixtureBuilder()
        switch shape % 4 {
        case 0:
            builder.addStored(name, content)
        default:
            let index = builder.addCompressed(
                name, compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
                uncompressedSize: UInt64(content.count))
            builder.entries[index].dataDescriptor = shape % 4 >= 2
            builder.entries[index].dataDescriptorSignature = shape % 4 == 2
        }
        return builder.build()
    }

    /// Runs a python3 `script` that writes an archive to its standard output, a pipe, which
    /// `zipfile` cannot seek: so it writes a data descriptor after each entry it streams.
    static func pythonArchive(_ script: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ZipPythonFixture.PythonFailed(status: process.terminationStatus)
        }
        return Array(data)
    }
}

/// Collects a reader's events, checking that they come in order: start, data, end.
struct ZipStreamCollector {
    var entries: [StreamedEntry] = []
    var open: StreamedEntry?

    mutating func take(_ event: ZipStreamEvent) {
        switch event {
        case .entryStarted(let entry):
            #expect(open == nil, "\(entry.name) started inside \(open?.entry.name ?? "")")
            open = StreamedEntry(entry: entry, content: [])
        case .data(let chunk):
            #expect(!chunk.isEmpty)
            #expect(open != nil, "data outside an entry")
            open?.content += chunk
        case .entryEnded:
            guard let entry = open else {
                Issue.record("an entry ended that never started")
                return
            }
            entries.append(entry)
            open = nil
        }
    }
}

/// Reads an archive front to back and, within it, every `.zip` entry as an archive of its own
/// and every `.gz` entry through `GzipStream`, to any depth: nothing is extracted, and each
/// level holds one reader.
final class NestedZipReader {
    /// The leaves found, each under its path through the archives ("outer.zip/inner.zip/a.fit").
    final class Leaves {
        var found: [(path: String, content: [UInt8])] = []
    }

    let path: String
    /// How many archives hold this one.
    let depth: Int
    private let reader: ZipStreamReader
    private let leaves: Leaves
    private let maxDepth: Int
    private var child: NestedZipReader?
    private var gzip: GzipStream?
    private var leafPath: String?
    private var leaf: [UInt8] = []

    init(path: String, depth: Int = 0, maxDepth: Int = 64, leaves: Leaves, limits: ZipLimits = ZipLimits()) {
        self.path = path
        self.depth = depth
        self.maxDepth = maxDepth
        self.leaves = leaves
        self.reader = ZipStreamReader(name: path, limits: limits)
    }

    struct TooDeep: Error {
        var path: String
    }

    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try reader.feed(bytes) { event in
            switch event {
            case .entryStarted(let entry):
                let entryPath = path + "/" + entry.name
                if entry.name.hasSuffix(".zip") {
                    guard depth < maxDepth else { throw TooDeep(path: entryPath) }
                    child = NestedZipReader(path: entryPath, depth: depth + 1, maxDepth: maxDepth, leaves: leaves)
                } else {
                    if entry.name.hasSuffix(".gz") { gzip = try GzipStream(limit: 1 << 30) }
                    leafPath = entryPath
                    leaf = []
                }
            case .data(let chunk):
                if let child {
                    try child.feed(chunk)
                } else if let gzip {
                    try gzip.feed(chunk) { leaf += $0 }
                } else {
                    leaf += chunk
                }
            case .entryEnded:
                if let child {
                    try child.finish()
                    self.child = nil
                } else {
                    try gzip?.finish()
                    gzip = nil
                    leaves.found.append((leafPath ?? "", leaf))
                }
            }
        }
    }

    func finish() throws {
        try reader.finish()
    }
}
