import Foundation
import HealthETLStore
import HealthETLTestSupport
import Testing

/// Runs one import again and again, each run killed with SIGKILL at a random moment (or let
/// finish), checking the store after every run: consistent, and once a run finishes, equal to
/// the store a clean run gives; then the next chain starts in a fresh store.
struct KilledImportChain {
    let runner: CommandRunner
    let directory: TemporaryDirectory
    /// The runs' environment; nil inherits this process's.
    var environment: [String: String]?

    /// - Parameters:
    ///   - arguments: the import's arguments after `--store DIR`.
    ///   - expected: the clean run's `contentRows()`.
    ///   - afterEach: more checks of the store after each run.
    /// - Returns: how many runs were killed, and the store of the chain the runs ended in.
    func run(
        _ arguments: [String], times: Int, seed: UInt64, expected: [String],
        afterEach: (Store) throws -> Void = { _ in }
    ) throws -> (kills: Int, store: String) {
        var chain = 0
        var store = directory.child("killed-0")
        var random = SeededGenerator(seed: seed)
        var kills = 0
        for _ in 0..<times {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: runner.executable)
            process.arguments = ["--store", store] + arguments
            if let environment { process.environment = environment }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(random.next() % 1_500_000))
            let wasKilled = process.isRunning
            if wasKilled {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            let opened = try Store(directory: StoreDirectory(path: store))
            #expect(try opened.integrityCheck() == ["ok"])
            try afterEach(opened)
            if !wasKilled, process.terminationStatus == 0 {
                #expect(try opened.contentRows() == expected, "chain \(chain) ended with another store")
                chain += 1
                store = directory.child("killed-\(chain)")
            }
        }
        return (kills, store)
    }
}
