import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for one test run: `initdb` into a temporary directory, the
/// server on a free port and a Unix socket in that directory, stopped and removed by `stop()`.
/// PostgreSQL refuses to run as root, so under root (CI) every server program runs as the
/// `postgres` system user the distribution's package creates, through `runuser`.
public final class PostgresCluster: @unchecked Sendable {
    /// Where the distribution installs the server programs (`/usr/lib/postgresql/<major>/bin`).
    public let binaries: String
    public let directory: String
    public let port: Int
    /// The role every test connects as (trust authentication: the cluster lives only as long as
    /// the test and listens on loopback and a private socket).
    public let user = "healthetl"

    /// `postgres://healthetl@127.0.0.1:PORT/DATABASE`.
    public func url(database: String) -> String { "postgres://\(user)@127.0.0.1:\(port)/\(database)" }

    /// Finds the newest installed server, or `nil` when none is (the tests that need it say so).
    public static func installedBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let majors = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return majors.reversed().map { "\(root)/\($0)/bin" }.first {
            FileManager.default.isExecutableFile(atPath: $0 + "/initdb")
        }
    }

    public init(binaries: String) throws {
        self.binaries = binaries
        directory = try Self.temporaryDirectory()
        port = try LoopbackPort.free()
        if getuid() == 0 { try Self.run("/bin/chown", ["-R", "postgres", directory], asServer: false) }
        try Self.run(
            binaries + "/initdb",
            ["-D", directory + "/data", "-A", "trust", "-U", user, "--no-sync", "-E", "UTF8", "--locale", "C"])
        try Self.run(
            binaries + "/pg_ctl",
            [
                "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-o",
                "-k \(directory) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
                "start",
            ])
    }

    /// Creates a database for one test.
    public func createDatabase(_ name: String) throws {
        try Self.run(binaries + "/createdb", ["-h", directory, "-p", String(port), "-U", user, name])
    }

    /// Runs one SQL statement with `psql` and returns its rows, one per line, fields joined by `|`.
    public func sql(_ statement: String, database: String) throws -> [String] {
        let output = try Self.run(
            binaries + "/psql",
            [
                "-h", directory, "-p", String(port), "-U", user, "-d", database, "-At", "-v", "ON_ERROR_STOP=1", "-c",
                statement,
            ])
        return output.split(separator: "\n").map(String.init)
    }

    /// Stops the server at once and removes its directory.
    public func stop() {
        _ = try? Self.run(binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    // MARK: - Processes

    /// Runs a server program to its end, as `postgres` when this process is root.
    ///
    /// Spawned and reaped here rather than through `Process`: `pg_ctl start` leaves a daemon
    /// behind that keeps what it inherited open, and `Process` then never saw its child end.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], asServer: Bool = true) throws -> String {
        let argv =
            (asServer && getuid() == 0 ? ["/sbin/runuser", "-u", "postgres", "--", program] : [program]) + arguments
        let log = "/tmp/healthetl-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { unlink(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else {
            throw PostgresClusterError(command: argv.joined(separator: " "), output: "spawn: \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // Exited normally with 0: the low 7 bits are the signal (none), the next 8 the code.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw PostgresClusterError(command: argv.joined(separator: " "), output: text)
        }
        return text
    }

    private static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/healthetl-pg.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        return String(cString: made)
    }
}

/// A server program that failed, with what it printed.
public struct PostgresClusterError: Error, CustomStringConvertible {
    public var command: String
    public var output: String
    public var description: String { "\(command) failed: \(output)" }
}
