import HealthConnect
import HealthETLCore

let catalog = try! MetricCatalog.bundled()
/// A fixed "now" for the read: 2026-01-01, so a crash reproduces whenever it is replayed.
let readAt = Instant(millisecondsSinceEpoch: 1_767_225_600_000)

/// libFuzzer's entry point for the Health Connect reader: each input is written out as the
/// database of an export and read as an import reads one (`HealthConnectAdapter`: the integrity
/// check, the schema audit, the read plan, every mapped table), each record it hands on normalized.
/// The seeds are small databases, so mutations land in their pages: values, row ids, schema text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = FuzzScratch.write(UnsafeRawBufferPointer(start: data, count: size), as: "health_connect_export.db")
    var handler = NormalizingHandler(catalog: catalog, now: readAt)
    _ = try? HealthConnectAdapter().read(SourceInput(path: path, readAt: readAt), into: &handler)
    return 0
}
