#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory holding one SQLite database (the client store, or the collector's data), created
/// private (0700 / 0600) whatever the umask.
///
/// SQLite would create the database 0644; it gives `-wal` and `-shm` the database's own mode,
/// so pre-creating the database 0600 keeps all three private.
public struct DatabaseDirectory: Sendable {
    public static let databaseName = "healthetl.sqlite"
    public static let sidecarSuffixes = ["-wal", "-shm", "-journal"]

    public let path: String
    public var databasePath: String { path + "/" + DatabaseDirectory.databaseName }

    public init(path: String) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Creates what is missing, then refuses anything other users could read.
    /// - Throws: `DatabaseError.unsafePermissions` with the `chmod` that fixes it.
    public func prepare() throws {
        try createDirectory(path)
        try requirePrivate(path, isDirectory: true)
        let fd = open(databasePath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw DatabaseError.cannotOpen(path: databasePath, reason: String(cString: strerror(errno)))
        }
        for file in [databasePath] + DatabaseDirectory.sidecarSuffixes.map({ databasePath + $0 }) {
            try requirePrivate(file, isDirectory: false)
        }
    }

    /// Runs `body` holding an exclusive `flock` on the directory: how opening the database is
    /// serialised between processes. Two processes setting up a new database together (its page
    /// size, the switch to WAL, the first migrations) can otherwise deadlock in SQLite's locks, and
    /// SQLite then fails one at once, without waiting. The lock goes with the process, so one
    /// killed while holding it blocks nobody.
    /// - Throws: `DatabaseError.cannotOpen` when another process holds it beyond `patience`.
    public func whileOpening<T>(patience seconds: Double = 60, _ body: () throws -> T) throws -> T {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw DatabaseError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var waited = 0.0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw DatabaseError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
            guard waited < seconds else {
                throw DatabaseError.cannotOpen(
                    path: path, reason: "another healthetl process has been opening it for \(Int(seconds)) s")
            }
            usleep(10_000)
            waited += 0.01
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    private func createDirectory(_ directory: String) throws {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw DatabaseError.notADirectory(path: directory) }
            return
        }
        let parent = directory.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        if !parent.isEmpty { try createDirectory(parent) }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw DatabaseError.cannotOpen(path: directory, reason: String(cString: strerror(errno)))
        }
    }

    /// Missing files pass; present ones must not be readable, writable or searchable by others.
    private func requirePrivate(_ file: String, isDirectory: Bool) throws {
        if let mode = Self.openToOthers(file)?.mode {
            let fix =
                isDirectory
                ? "chmod 700 '\(file)' && chmod 600 '\(file)'/\(DatabaseDirectory.databaseName)*"
                : "chmod 600 '\(file)'"
            throw DatabaseError.unsafePermissions(path: file, mode: mode, fix: fix)
        }
    }

    /// The permission bits of a file or directory others may read, write or search (and which it
    /// is); nil when it is private, or missing. `doctor` checks the store's files and tokens with it.
    public static func openToOthers(_ path: String) -> (mode: UInt32, isDirectory: Bool)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let mode = UInt32(info.st_mode) & 0o7777
        return mode & 0o077 == 0 ? nil : (mode, (info.st_mode & S_IFMT) == S_IFDIR)
    }
}
