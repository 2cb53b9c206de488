import Testing

@testable import CollectorSink

/// The event-stream reader: fields, comments, line ends and events split anywhere across reads.
struct ServerSentEventsTests {
    static let stream =
        "retry: 2000\n\n: heartbeat\n\nid: 7\nevent: change\ndata: {\"seq\":7}\n\n"
        + "event: resync\r\ndata: {\"head\":9}\r\n\r\nid:8\rdata:a\rdata: b\r\r"

    static let expected = [
        ServerSentEvents.Event(name: "change", data: "{\"seq\":7}", id: "7"),
        ServerSentEvents.Event(name: "resync", data: "{\"head\":9}", id: "7"),
        ServerSentEvents.Event(name: "message", data: "a\nb", id: "8"),
    ]

    @Test func eventsCommentsAndEveryLineEnd() throws {
        var parser = ServerSentEvents()
        #expect(try parser.consume(Array(Self.stream.utf8)) == Self.expected)
    }

    @Test func anySplitOfTheBytesGivesTheSameEvents() throws {
        let bytes = Array(Self.stream.utf8)
        for cut in 0...bytes.count {
            var parser = ServerSentEvents()
            let events = try parser.consume(bytes[..<cut]) + parser.consume(bytes[cut...])
            #expect(events == Self.expected, "cut at \(cut)")
        }
    }

    /// `data:` lines without the blank line that ends an event are refused at the event's cap,
    /// having held no more (gathered without end, they reached 566 MB after 400 MB received).
    @Test func anEndlessEventIsRefusedAtItsCap() {
        var parser = ServerSentEvents()
        let line = Array(("data: " + String(repeating: "x", count: 4_095) + "\n").utf8)
        var refused = false
        var sent = 0
        while sent < 4 * ServerSentEvents.maximumEventBytes {
            do {
                #expect(try parser.consume(line).isEmpty)
            } catch {
                #expect(error == .eventTooLarge)
                refused = true
                break
            }
            sent += line.count
            #expect(parser.eventBytes <= ServerSentEvents.maximumEventBytes)
        }
        #expect(refused, "no refusal after \(sent) bytes of one event")
        #expect(sent <= ServerSentEvents.maximumEventBytes + line.count)
    }

    /// Events at the cap pass, one after another: only one event's bytes are counted.
    @Test func eventsJustUnderTheCapPassOneAfterAnother() throws {
        var parser = ServerSentEvents()
        let data = String(repeating: "y", count: ServerSentEvents.maximumEventBytes - 16)
        let event = Array(("event: change\ndata: " + data + "\n\n").utf8)
        for _ in 0..<3 {
            let events = try parser.consume(event)
            #expect(events.count == 1 && events.first?.data.utf8.count == data.utf8.count)
        }
    }

    @Test func anEndlessLineIsRefused() {
        var parser = ServerSentEvents()
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: ServerSentEvents.maximumLineBytes + 1)
        #expect(throws: ServerSentEvents.Failure.lineTooLong) { _ = try parser.consume(long) }
    }
}
