#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A read-only file descriptor read with `pread`, so no shared file position is ever moved.
final class ZipFileDescriptor {
    let path: String
    let size: UInt64
    let identity: ZipFileIdentity
    private let descriptor: Int32

    /// Opens `path` read-only; throws `ZipError.Kind.io` unless it is a readable regular file.
    init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ZipError(.io, "Cannot open '\(path)': \(reason). Check the path and its permissions.")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ZipError(.io, "Cannot inspect '\(path)': \(reason). Check the path and its permissions.")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw ZipError(
                .io,
                "'\(path)' is not a regular file. Pass the export.zip file itself, not a folder or device.")
        }
        self.path = path
        self.size = UInt64(status.st_size)
        self.identity = ZipFileIdentity(status)
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Fills `buffer` from `offset`, stopping early only at the end of the file.
    /// - Returns: the number of bytes read, less than `buffer.count` only at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws -> Int {
        guard let base = buffer.baseAddress, offset < size else { return 0 }
        var done = 0
        while done < buffer.count {
            let position = off_t(offset) + off_t(done)
            let count = pread(descriptor, base + done, buffer.count - done, position)
            if count > 0 {
                done += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                let reason = String(cString: strerror(errno))
                throw ZipError(
                    .io,
                    "Cannot read '\(path)' at byte \(position): \(reason). "
                        + "Check that the disk is healthy and the file is still there, then try again.")
            }
        }
        return done
    }

    /// Up to `count` bytes from `offset`; fewer only when the file ends first.
    func bytes(at offset: UInt64, count: Int) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        let read = try result.withUnsafeMutableBytes { try self.read(into: $0, at: offset) }
        result.removeLast(count - read)
        return result
    }
}
