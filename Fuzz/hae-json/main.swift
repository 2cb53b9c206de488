@testable import HealthAutoExport

/// libFuzzer's entry point for Health Auto Export's JSON tokenizer: each input is tokenized
/// whole and in chunks whose sizes follow from it, and the two must give the same tokens and the
/// same error at the same byte. A crash, a sanitizer report or a disagreement stops the run with
/// the input saved.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let whole = JSONTokenLog(CollectionOfOne(input))
    let chunked = JSONTokenLog(FuzzChunks(input))
    guard whole == chunked else {
        let common = min(whole.tokens.count, chunked.tokens.count)
        let difference = (0..<common).first { whole.tokens[$0] != chunked.tokens[$0] } ?? common
        fatalError(
            "The text tokenizes differently in chunks: whole \(whole.tokens.count) tokens, error "
                + "\(whole.error.map { "\($0)" } ?? "none"); chunked \(chunked.tokens.count) tokens, error "
                + "\(chunked.error.map { "\($0)" } ?? "none"); tokens differ from #\(difference)")
    }
    return 0
}
