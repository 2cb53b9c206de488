/// Reads a `text/event-stream` body (the WHATWG Server-Sent Events format) as bytes arrive:
/// `event:`, `data:` and `id:` fields gathered until a blank line, comments and other fields skipped.
struct ServerSentEvents {
    struct Event: Equatable {
        var name = "message"
        var data = ""
        var id: String?
    }

    /// Longest line kept: an event of the change feed is far smaller.
    static let maximumLineBytes = 1 << 20
    /// Most bytes of one event's `data:` lines together: lines without the blank line that ends
    /// an event would otherwise gather without end.
    static let maximumEventBytes = 1 << 20

    private var line: [UInt8] = []
    private var pending = Event()
    private var hasData = false
    private var lastByteWasCR = false
    /// Bytes of the `data` lines of the event being gathered.
    private(set) var eventBytes = 0

    enum Failure: Error { case lineTooLong, eventTooLarge }

    /// Takes more bytes; returns the events they complete.
    mutating func consume(_ bytes: some Sequence<UInt8>) throws(Failure) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            // CRLF, LF and CR each end a line.
            if byte == UInt8(ascii: "\n") && lastByteWasCR {
                lastByteWasCR = false
                continue
            }
            lastByteWasCR = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if let event = try endLine() { events.append(event) }
            } else {
                guard line.count < Self.maximumLineBytes else { throw .lineTooLong }
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() throws(Failure) -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            defer {
                pending = Event(id: pending.id)
                hasData = false
                eventBytes = 0
            }
            return hasData ? pending : nil
        }
        guard line.first != UInt8(ascii: ":") else { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = String(decoding: line[..<colon], as: UTF8.self)
        var valueStart = colon < line.endIndex ? colon + 1 : colon
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = String(decoding: line[valueStart...], as: UTF8.self)
        switch field {
        case "event": pending.name = value
        case "data":
            // The one field that gathers: other fields replace what they held.
            eventBytes += value.utf8.count + 1
            guard eventBytes <= Self.maximumEventBytes else { throw .eventTooLarge }
            pending.data += hasData ? "\n" + value : value
            hasData = true
        case "id": pending.id = value
        default: break
        }
        return nil
    }
}
