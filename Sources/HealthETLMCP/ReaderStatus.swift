/// How current a reader's answers are.
public struct ReaderStatus: Sendable, Equatable, Encodable {
    /// How the rollups, nights and insights are made: computed on each call from the samples
    /// (`computed_from_samples`), or as the collector last refreshed them.
    public var projections: String
    /// Local days whose projections wait for a refresh (the collector's queue; 0 here).
    public var daysAwaitingRefresh: Int
    /// RFC 3339, UTC: when the last import finished, when data last arrived, when the last upload
    /// run finished; `nil` before the first.
    public var lastImport: String?
    public var lastUpload: String?
    public var lastReceived: String?
    /// Samples stored, and how many wait in the upload queue (the device's store only).
    public var samples: Int
    public var uploadsPending: Int?

    public init(
        projections: String, daysAwaitingRefresh: Int, lastImport: String?, lastUpload: String?,
        lastReceived: String?, samples: Int, uploadsPending: Int?
    ) {
        self.projections = projections
        self.daysAwaitingRefresh = daysAwaitingRefresh
        self.lastImport = lastImport
        self.lastUpload = lastUpload
        self.lastReceived = lastReceived
        self.samples = samples
        self.uploadsPending = uploadsPending
    }

    private enum CodingKeys: String, CodingKey {
        case projections, samples
        case daysAwaitingRefresh = "days_awaiting_refresh"
        case lastImport = "last_import"
        case lastUpload = "last_upload"
        case lastReceived = "last_received"
        case uploadsPending = "uploads_pending"
    }

    /// Optional values as JSON `null` rather than left out: the output schema names every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(projections, forKey: .projections)
        try container.encode(daysAwaitingRefresh, forKey: .daysAwaitingRefresh)
        try container.encode(lastImport, forKey: .lastImport)
        try container.encode(lastUpload, forKey: .lastUpload)
        try container.encode(lastReceived, forKey: .lastReceived)
        try container.encode(samples, forKey: .samples)
        try container.encode(uploadsPending, forKey: .uploadsPending)
    }
}
