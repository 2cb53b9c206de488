import Foundation

/// A server command of the built binary (`serve`, `receive`) started on port 0: it runs until
/// the test stops it, and `start` returns once it printed the line with the port it listens on.
public enum ListeningServer {
    /// Starts `arguments` and reads standard output up to its first line, `… http://HOST:PORT…`.
    /// Its standard error is read as it comes (`ServerLog`), so a server that logs every request
    /// never blocks on a full pipe.
    public static func start(_ runner: CommandRunner, _ arguments: [String]) throws -> (
        Process, port: Int, stderr: ServerLog
    ) {
        try start(executable: runner.executable, arguments)
    }

    /// Any program that prints `… http://HOST:PORT…` once it listens (a test's fake server).
    public static func start(executable: String, _ arguments: [String]) throws -> (
        Process, port: Int, stderr: ServerLog
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = port(in: text) else {
            process.terminate()
            throw ListeningServerError(line: text)
        }
        return (process, port, ServerLog(reading: errors))
    }

    /// The port of the first `http://HOST:PORT` in `line`.
    static func port(in line: String) -> Int? {
        guard let scheme = line.range(of: "http://") else { return nil }
        let authority = line[scheme.upperBound...].prefix { $0 != "/" && $0 != " " && $0 != "\n" }
        return authority.split(separator: ":").last.flatMap { Int($0) }
    }
}

/// A server that printed no listening line: what it printed instead.
public struct ListeningServerError: Error, CustomStringConvertible {
    public var line: String
    public var description: String { "no listening line: \(line)" }
}
