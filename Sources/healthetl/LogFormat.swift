import ArgumentParser
import Foundation
import Logging

/// `--log-format`: how the log lines on standard error read — `text` for people, `json` (one
/// object a line) for log shippers.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json

    /// Sets up swift-log once for the whole process: this format, lines at `level` and above.
    func bootstrap(level: Logger.Level) {
        switch self {
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        case .json:
            LoggingSystem.bootstrap { label in
                JSONLogHandler(label: label, logLevel: level, write: Self.writeToStandardError)
            }
        }
    }

    /// One `write(2)` a line, so concurrent lines never interleave.
    @Sendable static func writeToStandardError(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
