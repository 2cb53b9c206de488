#if canImport(Glibc)
    import Glibc
#endif

/// Reads a local file in fixed-size chunks: constant memory whatever its size.
enum FileStreamer {
    static let chunkSize = 1 << 20

    static func stream(path: String, into consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ExportError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw ExportError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return }
            try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// The first `count` bytes of a file (fewer if it is shorter).
    static func prefix(path: String, count: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ExportError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
        guard got >= 0 else { throw ExportError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        return Array(bytes.prefix(got))
    }
}
