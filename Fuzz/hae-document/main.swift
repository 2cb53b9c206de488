import HealthETLCore

@testable import HealthAutoExport

let catalog = try! MetricCatalog.bundled()
/// A fixed "now" for normalizing, so a crash reproduces whenever it is replayed.
let readAt = Instant(millisecondsSinceEpoch: 1_767_225_600_000)

/// libFuzzer's entry point for Health Auto Export's document reader, with the tokenizer in front
/// and the point, workout and section readers behind it (`HAEPayloadReader`, as an import reads a
/// file): each input is read whole and in chunks whose sizes follow from it, and the two readings
/// must hand on the same items and end the same way. The items are then normalized, as an import
/// does next.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let whole = HAEReading(CollectionOfOne(input), catalog: catalog)
    let chunked = HAEReading(FuzzChunks(input), catalog: catalog)
    guard whole == chunked else {
        let common = min(whole.items.count, chunked.items.count)
        let difference = (0..<common).first { whole.items[$0] != chunked.items[$0] } ?? common
        fatalError(
            "The text reads differently in chunks: whole \(whole.items.count) items, \(whole.warnings), "
                + "\(whole.failure ?? "no error"); chunked \(chunked.items.count) items, \(chunked.warnings), "
                + "\(chunked.failure ?? "no error"); items differ from #\(difference)")
    }
    var handler = NormalizingHandler(catalog: catalog, now: readAt)
    for item in whole.items {
        for event in item.events(in: .cold) { try! handler.receive(event) }
    }
    return 0
}
