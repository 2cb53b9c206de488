#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which file, in which state: the same device and inode, size, and modification and change
/// times. A file replaced, or written to, since has another identity, so what was read from it
/// before no longer speaks for it.
struct ZipFileIdentity: Sendable, Equatable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modified: Timestamp
    /// The status change time: unlike the modification time, no one can set it back.
    private let changed: Timestamp

    private struct Timestamp: Sendable, Equatable {
        let seconds: Int
        let nanoseconds: Int
    }

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
            modified = Timestamp(
                seconds: Int(status.st_mtimespec.tv_sec), nanoseconds: Int(status.st_mtimespec.tv_nsec))
            changed = Timestamp(
                seconds: Int(status.st_ctimespec.tv_sec), nanoseconds: Int(status.st_ctimespec.tv_nsec))
        #else
            modified = Timestamp(
                seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec))
            changed = Timestamp(seconds: Int(status.st_ctim.tv_sec), nanoseconds: Int(status.st_ctim.tv_nsec))
        #endif
    }
}
