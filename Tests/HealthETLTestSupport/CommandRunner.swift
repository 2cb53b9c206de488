import Foundation

/// Runs the built `healthetl` binary, as a user would, and captures what it printed.
public struct CommandRunner: Sendable {
    public struct Result: Sendable {
        public var exitCode: Int32
        public var standardOutput: String
        public var standardError: String
    }

    public let executable: String

    /// Finds the binary `swift build` produced next to the test bundle, or `$HEALTHETL_BINARY`.
    public init() {
        if let override = ProcessInfo.processInfo.environment["HEALTHETL_BINARY"] {
            executable = override
            return
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        executable = root.appendingPathComponent(".build/debug/healthetl").path
    }

    /// Runs another program the same way (the tests' Python tools).
    public init(executable: String) {
        self.executable = executable
    }

    public func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        process.environment = merged
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes to the end before waiting, so a chatty child cannot block on a full pipe.
        let errorData = ErrorCollector(error.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            exitCode: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }
}

/// Drains a pipe on a background thread.
private final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
