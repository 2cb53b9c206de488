import Foundation

/// One throwaway PostgreSQL cluster for a whole test run, made when a test first needs it and
/// stopped (and its directory removed) when the test process exits; each test takes a database
/// of its own in it.
public enum SharedPostgresCluster {
    nonisolated(unsafe) private static var cluster: PostgresCluster?
    private static let lock = NSLock()

    /// The cluster, started on first use.
    /// - Throws: when PostgreSQL is not installed (`make deps` installs it) or will not start.
    public static func get() throws -> PostgresCluster {
        lock.lock()
        defer { lock.unlock() }
        if let cluster { return cluster }
        guard let binaries = PostgresCluster.installedBinaries() else {
            throw PostgresClusterError(
                command: "initdb",
                output: "PostgreSQL's server is not installed; run `make deps` (it installs postgresql)")
        }
        let started = try PostgresCluster(binaries: binaries)
        cluster = started
        atexit { SharedPostgresCluster.stopAtExit() }
        return started
    }

    /// A new empty database in the shared cluster.
    public static func newDatabase() throws -> (PostgresCluster, database: String) {
        let cluster = try get()
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try cluster.createDatabase(name)
        return (cluster, name)
    }

    private static func stopAtExit() {
        cluster?.stop()
    }
}
