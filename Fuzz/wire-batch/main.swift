import Foundation
import HealthETLWire

/// libFuzzer's entry point for the collector's batch parser (`WireBatchParser`, which reads every
/// `POST /v1/batches` body first): whenever it reads a body, `JSONDecoder` (the reference it
/// stands in for) must read the same batch, and the batch written back out must read the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    guard let batch = WireBatchParser.parse(body) else { return 0 }
    let reference = try? JSONDecoder().decode(WireBatch.self, from: Data(body))
    precondition(batch == reference, "The parser reads a body differently from JSONDecoder")
    precondition(WireBatchParser.parse(batch.jsonBytes()) == batch, "The batch written back out reads differently")
    return 0
}
