/// The names an export's samples refer to by number: metric ids, source names and device
/// descriptions, each list indexed by the store's own numbers (a gap is an empty name).
public struct ExportNames: Sendable, Equatable {
    public var metrics: [String]
    public var sources: [String]
    public var devices: [String]

    public init(metrics: [String] = [], sources: [String] = [], devices: [String] = []) {
        self.metrics = metrics
        self.sources = sources
        self.devices = devices
    }

    public func metric(of sample: ExportedSample) -> String { Self.name(sample.metric, in: metrics) }
    public func source(of sample: ExportedSample) -> String { Self.name(sample.source, in: sources) }
    public func device(of sample: ExportedSample) -> String? { sample.device.map { Self.name($0, in: devices) } }

    private static func name(_ index: Int32, in names: [String]) -> String {
        names.indices.contains(Int(index)) ? names[Int(index)] : ""
    }

    /// A list indexed by number from (number, name) pairs.
    public static func indexed(_ pairs: [(Int64, String)]) -> [String] {
        var names = [String](repeating: "", count: Int(pairs.map(\.0).max() ?? -1) + 1)
        for (number, name) in pairs where number >= 0 { names[Int(number)] = name }
        return names
    }
}
