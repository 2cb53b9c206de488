import HealthETLZip

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an export's bytes go, handed over in pieces of about a mebibyte:
/// - a file: private (0600), written as `NAME.partial` and renamed into place when complete, so a
///   failed or interrupted export never leaves a file that looks whole;
/// - standard output (`-`), or something that is not a file at all (`/dev/null`, a named pipe):
///   written straight through, never replaced or made private (it is not ours).
public final class ExportOutput {
    /// `-` for standard output.
    public let path: String
    /// Bytes written so far (after `finish`, the file's size).
    public private(set) var bytesWritten = 0
    private let destination: Destination
    private var published = false
    /// Bytes written since the disk was last asked to catch up.
    private var unsynced = 0
    private static let writeBackEvery = 32 << 20
    private var pending: [UInt8] = []
    private static let chunk = 1 << 20

    private enum Destination {
        case file(PrivateFile)
        /// An open descriptor to write through, and whether it is ours to close.
        case stream(Int32, owned: Bool)
    }

    public init(path: String) throws {
        self.path = path
        if path == "-" {
            destination = .stream(STDOUT_FILENO, owned: false)
        } else if let special = try Self.openSpecial(path) {
            destination = .stream(special, owned: true)
        } else {
            destination = .file(try PrivateFile(path: path + ".partial", fresh: true))
        }
        pending.reserveCapacity(Self.chunk + 64 * 1024)
    }

    deinit {
        switch destination {
        case .file(let file) where !published:
            // Not finished: the partial file goes, the destination is left as it was.
            try? file.close()
            unlink(file.path)
        case .stream(let descriptor, owned: true) where !published:
            close(descriptor)
        default:
            break
        }
    }

    /// Appends through `body`, writing out once a piece is full.
    @inline(__always)
    public func append(_ body: (inout [UInt8]) -> Void) throws {
        body(&pending)
        if pending.count >= Self.chunk { try flush() }
    }

    /// Writes what is left, and publishes a file (fsync, rename) or closes what it opened (a
    /// pipe's reader then sees the end).
    public func finish() throws {
        try flush()
        guard case .file(let file) = destination else {
            if case .stream(let descriptor, owned: true) = destination, close(descriptor) != 0 {
                throw ExportError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
            published = true
            return
        }
        try file.sync()
        try file.close()
        guard rename(file.path, path) == 0 else {
            throw ExportError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        published = true
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        switch destination {
        case .file(let file):
            try pending.withUnsafeBytes { try file.write($0) }
            unsynced += pending.count
            if unsynced >= Self.writeBackEvery {
                file.startWriteBack()
                unsynced = 0
            }
        case .stream(let descriptor, _):
            try pending.withUnsafeBytes { buffer in
                var done = 0
                while done < buffer.count {
                    let written = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                    if written < 0 {
                        if errno == EINTR { continue }
                        let name = path == "-" ? "standard output" : path
                        throw ExportError.cannotWrite(path: name, reason: String(cString: strerror(errno)))
                    }
                    done += written
                }
            }
        }
        bytesWritten += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    /// Opens `path` for writing when it exists and is not a regular file or a folder (a device, a
    /// named pipe): such a thing is written through, never replaced by a rename.
    private static func openSpecial(_ path: String) throws -> Int32? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw ExportError.cannotWrite(path: path, reason: "it is a folder") }
        guard kind != S_IFREG else { return nil }
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ExportError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        return descriptor
    }
}
