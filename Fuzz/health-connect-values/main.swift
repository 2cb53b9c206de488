import HealthConnect
import HealthETLCore

let catalog = try! MetricCatalog.bundled()
/// A fixed "now" for the read: 2026-01-01, so a crash reproduces whenever it is replayed.
let readAt = Instant(millisecondsSinceEpoch: 1_767_225_600_000)
let templates = HealthConnectTemplate.loadAll()

/// libFuzzer's entry point for the Health Connect reader over databases whose values are hostile:
/// the first byte picks one of the `health-connect` target's seed databases, the rest edits its
/// rows (`HealthConnectValueEdits`), and the result is read as an import reads an export
/// (`HealthConnectAdapter`), each record it hands on normalized.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    guard let first = input.first else { return 0 }
    let template = templates[Int(first) % templates.count]
    let path = template.bytes.withUnsafeBytes { FuzzScratch.write($0, as: "health_connect_export.db") }
    var edits = HealthConnectValueEdits(UnsafeRawBufferPointer(rebasing: input.dropFirst()))
    edits.apply(to: path, tables: template.tables)
    var handler = NormalizingHandler(catalog: catalog, now: readAt)
    _ = try? HealthConnectAdapter().read(SourceInput(path: path, readAt: readAt), into: &handler)
    return 0
}
