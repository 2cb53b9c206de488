import HealthETLCore

@testable import FIT

let catalog = try! MetricCatalog.bundled()
/// A fixed "now" for the read: 2026-01-01, so a crash reproduces whenever it is replayed.
let readAt = Instant(millisecondsSinceEpoch: 1_767_225_600_000)

/// libFuzzer's entry point for the FIT reader: `FITFileSplitter` (chained files, headers, CRCs,
/// cut-off files, trailing bytes), `FITMessageDecoder` (definitions, compressed timestamps,
/// `timestamp_16`, developer fields) and `FITMessageMapper` behind `FITReadSession`, as an import
/// reads a `.fit` file. Each input is fed whole and in chunks whose sizes follow from it: the
/// splitter must cut the same files and the decoder read the same messages, and the reader must
/// hand on the same events, warnings and problems. The records are then normalized, as an import
/// does next.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let whole = FITSplitLog(CollectionOfOne(input))
    let chunked = FITSplitLog(FuzzChunks(input))
    guard whole == chunked else {
        fatalError(
            "The bytes split differently in chunks: whole \(whole.files.count) files, \(whole.messages.count) messages, "
                + "damage \(whole.damage), \(whole.decodeDamage), consumed \(whole.consumed); chunked "
                + "\(chunked.files.count) files, \(chunked.messages.count) messages, damage \(chunked.damage), "
                + "\(chunked.decodeDamage), consumed \(chunked.consumed)")
    }
    var handler = NormalizingHandler(catalog: catalog, now: readAt)
    let read = FITSessionLog(CollectionOfOne(input), catalog: catalog, readAt: readAt) { try! handler.receive($0) }
    let readInChunks = FITSessionLog(FuzzChunks(input), catalog: catalog, readAt: readAt)
    // A value the mapper computed as NaN is unequal to itself: the two logs then compare as text.
    guard read == readInChunks || "\(read)" == "\(readInChunks)" else {
        let common = min(read.events.count, readInChunks.events.count)
        let difference = (0..<common).first { read.events[$0] != readInChunks.events[$0] } ?? common
        fatalError(
            "The file reads differently in chunks: whole \(read.events.count) events, \(read.warnings), "
                + "\(read.problems); chunked \(readInChunks.events.count) events, \(readInChunks.warnings), "
                + "\(readInChunks.problems); events differ from #\(difference)")
    }
    return 0
}
