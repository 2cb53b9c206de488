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

    @Test func anEndlessLineIsRefused() {
        var parser = ServerSentEvents()
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: ServerSentEvents.maximumLineBytes + 1)
        #expect(throws: ServerSentEvents.Failure.lineTooLong) { _ = try parser.consume(long) }
    }
}
