/// How large one uploaded batch may be: a count and a byte budget for its encoded body.
public struct UploadLimits: Sendable, Equatable {
    public var samples: Int
    /// The encoded body (JSON before compression) stays under this.
    public var bytes: Int

    public init(samples: Int = 5_000, bytes: Int = 8 << 20) {
        self.samples = samples
        self.bytes = bytes
    }
}
