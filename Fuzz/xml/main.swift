import AppleHealth

/// libFuzzer's entry point for the XML byte filter, tag scanner and libxml2 glue
/// (`XMLStreamParser`): each input is read whole and in chunks whose sizes follow from it, and
/// the two readings must agree; and whole again with every element left to libxml2, which the
/// direct reading of start tags must agree with. Inputs of even length are read as the GPX
/// reader reads (with text), odd ones as `export.xml` is. A crash, a sanitizer report or a
/// disagreement stops the run with the input saved.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let kind: XMLEventLog.Type = size % 2 == 0 ? XMLTextEventLog.self : XMLEventLog.self
    let whole = kind.read(CollectionOfOne(input))
    let chunked = kind.read(FuzzChunks(input))
    guard whole.succeeded == chunked.succeeded, !whole.succeeded || whole == chunked else {
        let common = min(whole.log.count, chunked.log.count)
        let difference = (0..<common).first { whole.log[$0] != chunked.log[$0] } ?? common
        fatalError(
            "The document reads differently in chunks: whole succeeded \(whole.succeeded), \(whole.log.count) log "
                + "bytes, warnings \(whole.warnings), consumed \(whole.consumedOffset); chunked succeeded "
                + "\(chunked.succeeded), \(chunked.log.count) log bytes, warnings \(chunked.warnings), consumed "
                + "\(chunked.consumedOffset); logs differ from byte \(difference)")
    }
    // Empty elements read without libxml2 give what libxml2 gives, events before an error included.
    let reference = kind.read(CollectionOfOne(input), readingTagsDirectly: false)
    guard reference.succeeded == whole.succeeded, reference.log == whole.log,
        !whole.succeeded || reference == whole
    else {
        fatalError(
            "Empty elements read without libxml2 differ from libxml2's reading: succeeded \(whole.succeeded) / "
                + "\(reference.succeeded), \(whole.log.count) / \(reference.log.count) log bytes, warnings "
                + "\(whole.warnings) / \(reference.warnings)")
    }
    return 0
}
