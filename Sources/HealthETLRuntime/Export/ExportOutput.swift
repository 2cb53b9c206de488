import HealthETLZip

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an export's bytes go: standard output, or a private file (0600) written as
/// `NAME.partial` and renamed into place when complete, so a failed or interrupted export never
/// leaves a file that looks whole. Bytes are handed over in pieces of about a mebibyte.
public final class ExportOutput {
    /// `-` for standard output.
    public let path: String
    /// Bytes written so far (after `finish`, the file's size).
    public private(set) var bytesWritten = 0
    private let file: PrivateFile?
    private var published = false
    /// Bytes written since the disk was last asked to catch up.
    private var unsynced = 0
    private static let writeBackEvery = 32 << 20
    private var pending: [UInt8] = []
    private static let chunk = 1 << 20

    public init(path: String) throws {
        self.path = path
        file = path == "-" ? nil : try PrivateFile(path: path + ".partial", fresh: true)
        pending.reserveCapacity(Self.chunk + 64 * 1024)
    }

    deinit {
        // Not finished: the partial file goes, the destination is left as it was.
        if let file, !published {
            try? file.close()
            unlink(file.path)
        }
    }

    /// Appends through `body`, writing out once a piece is full.
    @inline(__always)
    public func append(_ body: (inout [UInt8]) -> Void) throws {
        body(&pending)
        if pending.count >= Self.chunk { try flush() }
    }

    /// Writes what is left, and publishes the file (fsync, rename).
    public func finish() throws {
        try flush()
        guard let file else { return }
        try file.sync()
        try file.close()
        guard rename(file.path, path) == 0 else {
            throw ExportError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        published = true
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        if let file {
            try pending.withUnsafeBytes { try file.write($0) }
            unsynced += pending.count
            if unsynced >= Self.writeBackEvery {
                file.startWriteBack()
                unsynced = 0
            }
        } else {
            try pending.withUnsafeBytes { buffer in
                var done = 0
                while done < buffer.count {
                    let written = write(1, buffer.baseAddress! + done, buffer.count - done)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw ExportError.cannotWrite(path: "standard output", reason: String(cString: strerror(errno)))
                    }
                    done += written
                }
            }
        }
        bytesWritten += pending.count
        pending.removeAll(keepingCapacity: true)
    }
}
