import ArgumentParser
import Foundation
import Logging
import Synchronization

/// `--log-format`: how the log lines on standard error read — `text` for people, `json` (one
/// object a line) for log shippers.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json

    /// Whether the process writes JSON lines: then its messages on standard error (warnings,
    /// progress, the final error) are log objects too, and nothing else is written there.
    static let jsonSelected = Atomic<Bool>(false)

    /// Sets up swift-log once for the whole process: this format, lines at `level` and above.
    func bootstrap(level: Logger.Level) {
        Self.jsonSelected.store(self == .json, ordering: .relaxed)
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

    /// A message for people (`error: …`, `warning: …`, progress) as a JSON log line at its level.
    static func log(message: String) {
        var text = Substring(message)
        var level = Logger.Level.notice
        for (prefix, prefixLevel) in [("error: ", Logger.Level.error), ("warning: ", .warning)]
        where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
            level = prefixLevel
        }
        Logger(label: "healthetl").log(level: level, "\(text)")
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
