/// How large one uploaded batch may be: a count and a byte budget for its body.
public struct UploadLimits: Sendable, Equatable {
    public var samples: Int
    /// The body as the sink's far end measures it (the collector: the JSON after decompression)
    /// stays under this; the uploader lowers it to the sink's own maximum.
    public var bytes: Int

    public init(samples: Int = 5_000, bytes: Int = 8 << 20) {
        self.samples = samples
        self.bytes = bytes
    }
}
