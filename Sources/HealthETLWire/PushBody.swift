/// A body pushed to `healthetl receive` as decoded, spooled to a private file: the receiver holds no body in memory,
/// however large, and the committer reads it from the file as a stream.
public struct PushBody: Sendable {
    /// The spool file, 0600 in the spool directory; removed once the push is answered.
    public let path: String
    /// Its size in bytes.
    public let bytes: Int

    public init(path: String, bytes: Int) {
        self.path = path
        self.bytes = bytes
    }
}
