/// libFuzzer's entry point for the change feed's Server-Sent Events reader (`ServerSentEvents`,
/// compiled in from Plugins/CollectorSink: the rest of that target needs no fuzzing and much
/// building): each input is read whole and in chunks whose sizes follow from it, and the two
/// readings must give the same events, or fail the same way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let whole = ServerSentEventsReading(CollectionOfOne(input))
    let chunked = ServerSentEventsReading(FuzzChunks(input))
    // Events a failing chunk completed are dropped with it, so after a failure only its kind counts.
    guard whole.failure == chunked.failure, whole.failure != nil || whole.events == chunked.events else {
        fatalError(
            "The stream reads differently in chunks: whole \(whole.events.count) events, "
                + "\(whole.failure.map { "\($0)" } ?? "no failure"); chunked \(chunked.events.count) events, "
                + "\(chunked.failure.map { "\($0)" } ?? "no failure")")
    }
    return 0
}
