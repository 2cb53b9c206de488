/// What a stream's positions count, so progress can be shown in its terms.
public enum PositionKind: Sendable, Hashable {
    /// Bytes of the input.
    case bytes
    /// A database's row ids.
    case rows
    /// Files of the input: the file's number above bit `fileShift`, bytes within it below.
    case files

    /// Where a `.files` position's file number starts.
    public static let fileShift: Int64 = 40
}
