import HealthETLCore

/// How far an import has got, reported after every committed batch.
public struct ImportProgress: Sendable {
    /// Position in the stream (bytes of an export) and where it ends, when known.
    public var position: Int64
    public var endPosition: Int64?
    /// Positions count rows (a database's), not bytes.
    public var positions = PositionKind.bytes
    public var recordsRead: Int
    public var elapsedSeconds: Double
}
