import HealthETLCore

/// An export's names as one format writes them, prepared when the names arrive: each metric,
/// its unit, each source and device, copied by number for every sample.
struct WrittenNames {
    private(set) var metrics = NameTable()
    private(set) var units = NameTable()
    private(set) var sources = NameTable()
    private(set) var devices = NameTable()

    init() {}

    /// - Parameters:
    ///   - units: canonical unit per metric id; a metric without one is written by `unit` as "".
    ///   - escape: how the format writes a name (quoted CSV, a JSON string).
    ///   - unit: how it writes a unit (with its key, for NDJSON).
    init(
        _ names: ExportNames, units: [String: String], escape: (String, inout [UInt8]) -> Void,
        unit: (String, inout [UInt8]) -> Void
    ) {
        metrics = NameTable(names.metrics, escape: escape)
        self.units = NameTable(names.metrics.map { units[$0] ?? "" }, escape: unit)
        sources = NameTable(names.sources, escape: escape)
        devices = NameTable(names.devices, escape: escape)
    }
}
