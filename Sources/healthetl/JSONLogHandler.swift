import HealthETLCore
import Logging

/// `--log-format json`: one JSON object a line on standard error — `time`, `level`, `label`,
/// `message`, then the line's metadata (a request's `request_id`, `route`, `status`,
/// `duration_ms`) — for log shippers. What is logged is decided where it is logged: never a
/// token, a health value or a file's contents.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    /// Written whole, one line at a time.
    let write: @Sendable ([UInt8]) -> Void

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        write(Self.line(time: Clock.system.now(), label: label, event: event, base: metadata))
    }

    static func line(time: Instant, label: String, event: LogEvent, base: Logger.Metadata) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        func field(_ key: String, _ value: String) {
            bytes.append(bytes.isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
            JSONText.appendQuoted(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONText.appendQuoted(value, to: &bytes)
        }
        field("time", time.description)
        field("level", event.level.rawValue)
        field("label", label)
        field("message", event.message.description)
        let reserved: Set = ["time", "level", "label", "message"]
        let merged = base.merging(event.metadata ?? [:]) { _, line in line }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) where !reserved.contains(key) {
            field(key, value.description)
        }
        bytes.append(contentsOf: "}\n".utf8)
        return bytes
    }
}
