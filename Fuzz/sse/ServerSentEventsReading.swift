/// What `ServerSentEvents` makes of one stream: the events it completed, and how it failed, if it did.
struct ServerSentEventsReading {
    var events: [ServerSentEvents.Event] = []
    var failure: ServerSentEvents.Failure?

    /// Reads `chunks` as one stream, as the change feed's body arrives.
    init(_ chunks: some Sequence<UnsafeRawBufferPointer>) {
        var reader = ServerSentEvents()
        do throws(ServerSentEvents.Failure) {
            for chunk in chunks { events += try reader.consume(chunk) }
        } catch {
            failure = error
        }
    }
}
