import HealthETLZip

/// A zip inside the input (Garmin Connect's export keeps its FIT files in zips inside its zip),
/// read front to back as its bytes stream out of the outer archive: each entry goes to the
/// session as a FIT file, through gzip, or into a zip nested once more.
final class FITNestedZip {
    private enum Sink {
        case none
        case fit
        case gzip(GzipStream, name: String)
        case zip(FITNestedZip)
    }

    private let reader: ZipStreamReader
    private let name: String
    private let depth: Int
    private let session: FITReadSession
    private var sink = Sink.none

    init(name: String, depth: Int, session: FITReadSession) {
        self.reader = ZipStreamReader(name: name)
        self.name = name
        self.depth = depth
        self.session = session
    }

    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try reader.feed(bytes) { try handle($0) }
    }

    func finish() throws {
        try reader.finish()
    }

    private func handle(_ event: ZipStreamEvent) throws {
        switch event {
        case .entryStarted(let entry):
            try start(entry)
        case .data(let bytes):
            switch sink {
            case .none: break
            case .fit: try session.bytes(bytes)
            case .gzip(let gzip, let name): try gunzip(bytes, with: gzip, name: name)
            case .zip(let inner): try inner.feed(bytes)
            }
        case .entryEnded:
            try end()
        }
    }

    private func start(_ entry: ZipStreamEntry) throws {
        sink = .none
        guard !entry.isDirectory, !entry.isMacMetadata else { return }
        let entryName = name + "!" + entry.name
        switch FITInput.Kind(name: entry.name) {
        case .fit:
            session.beginFile(entryName)
            sink = .fit
        case .gzippedFIT:
            session.beginFile(entryName)
            sink = .gzip(try GzipStream(limit: FITInput.maximumGzipBytes), name: entryName)
        case .zip:
            guard depth < FITInput.maximumNesting else {
                session.problem(
                    "\(entryName): a zip nested \(depth + 1) deep is not read (at most \(FITInput.maximumNesting))")
                return
            }
            sink = .zip(FITNestedZip(name: entryName, depth: depth + 1, session: session))
        case .other(let kind):
            session.notRead(kind: kind)
        }
    }

    private func end() throws {
        switch sink {
        case .none: break
        case .fit: try session.endFile()
        case .gzip(let gzip, let name):
            do { try gzip.finish() } catch { session.problem("\(name): \(error) — the rest of this file is not read") }
            try session.endFile()
        case .zip(let inner): try inner.finish()
        }
        sink = .none
    }

    private func gunzip(_ bytes: UnsafeRawBufferPointer, with gzip: GzipStream, name: String) throws {
        do {
            try gzip.feed(bytes) { try session.bytes($0) }
        } catch let failure as GzipStream.Failure {
            session.problem("\(name): \(failure) — the rest of this file is not read")
            sink = .none
            try session.endFile()
        }
    }
}
