/// A source with samples: how many it wrote and the devices (sorted) it wrote them from.
public struct SourceSamples: Sendable, Equatable, Encodable {
    public var name: String
    public var samples: Int
    public var devices: [String]

    public init(name: String, samples: Int, devices: [String]) {
        self.name = name
        self.samples = samples
        self.devices = devices
    }

    /// Rows of (source, device, count), sorted by source, as one summary per source.
    public static func grouping(_ rows: [(source: String, device: String?, samples: Int)]) -> [SourceSamples] {
        var summaries: [SourceSamples] = []
        for row in rows {
            if summaries.last?.name != row.source {
                summaries.append(SourceSamples(name: row.source, samples: 0, devices: []))
            }
            summaries[summaries.count - 1].samples += row.samples
            if let device = row.device { summaries[summaries.count - 1].devices.append(device) }
        }
        return summaries
    }
}
