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

    /// What a count of positions is called in a summary: `bytes`, `rows` or `files`.
    public var unit: String {
        switch self {
        case .bytes: return "bytes"
        case .rows: return "rows"
        case .files: return "files"
        }
    }

    /// A position as a count of `unit`s: a `.files` position is its file's number.
    public func count(_ position: Int64) -> Int64 {
        self == .files ? position >> Self.fileShift : position
    }
}
