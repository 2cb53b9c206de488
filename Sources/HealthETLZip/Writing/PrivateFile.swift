#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written front to back with owner-only permissions: health data, even synthetic, is
/// private by default. `ZipWriter` also patches headers in place (`write(_:at:)`).
public final class PrivateFile {
    public let path: String
    /// Bytes appended so far: where the next `write(_:)` lands.
    public private(set) var offset: UInt64 = 0
    private var descriptor: Int32

    /// Opens `path` for writing, mode 0600.
    ///
    /// - Parameter fresh: remove whatever is at `path` first and create the file exclusively, so a
    ///   stale file or a planted symbolic link is never written through (for scratch files such as
    ///   `export.zip.partial`). Otherwise an existing file is truncated, as `>` in a shell does.
    public init(path: String, fresh: Bool = false) throws {
        var flags = O_WRONLY | O_CREAT | O_CLOEXEC
        if fresh {
            if unlink(path) != 0 && errno != ENOENT {
                throw ZipWriteError("cannot replace the stale \(path): \(Self.reason())")
            }
            flags |= O_EXCL
        } else {
            flags |= O_TRUNC
        }
        let descriptor = open(path, flags, 0o600)
        guard descriptor >= 0 else {
            throw ZipWriteError("cannot create \(path): \(Self.reason())")
        }
        // O_TRUNC keeps an existing file's mode, and the umask may have been loose; be explicit.
        guard fchmod(descriptor, 0o600) == 0 else {
            let reason = Self.reason()
            _ = Self.closeDescriptor(descriptor)
            throw ZipWriteError("cannot make \(path) private (chmod 0600): \(reason)")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { _ = Self.closeDescriptor(descriptor) }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        try write(bytes, at: offset)
        offset += UInt64(bytes.count)
    }

    /// Writes `bytes` at `position` without moving the append offset (pwrite).
    public func write(_ bytes: UnsafeRawBufferPointer, at position: UInt64) throws {
        guard let base = bytes.baseAddress else { return }
        guard descriptor >= 0 else { throw ZipWriteError("cannot write \(path): it is already closed") }
        var done = 0
        while done < bytes.count {
            let at = position + UInt64(done)
            let written = pwrite(descriptor, base + done, bytes.count - done, off_t(at))
            if written < 0 {
                if errno == EINTR { continue }
                throw ZipWriteError("cannot write \(path) at byte \(at): \(Self.reason())")
            }
            done += written
        }
    }

    /// Starts writing what was written so far to disk without waiting for it, and lets the page
    /// cache drop what already reached it: a long file then goes to disk while it is still being
    /// made, and the `sync` at its end has little left to wait for. (Linux starts the write-back on
    /// this advice; elsewhere it is only advice.)
    public func startWriteBack() {
        #if canImport(Glibc) || canImport(Musl)
            guard descriptor >= 0 else { return }
            _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
        #endif
    }

    /// Forces the bytes to disk, so a rename that follows publishes a complete file.
    public func sync() throws {
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            throw ZipWriteError("cannot flush \(path) to disk: \(Self.reason())")
        }
    }

    public func close() throws {
        guard descriptor >= 0 else { return }
        let result = Self.closeDescriptor(descriptor)
        descriptor = -1
        // close(2) can report a write-back failure (NFS, full disk): the file is then incomplete.
        if result != 0 { throw ZipWriteError("cannot finish writing \(path): \(Self.reason())") }
    }

    // Free functions named like the methods above are shadowed inside the class.
    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #elseif canImport(Musl)
            Musl.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
