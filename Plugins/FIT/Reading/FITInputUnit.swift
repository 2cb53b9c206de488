/// One thing an input is read in: a file of a folder, or an entry of a zip. Its FIT files are
/// handed to a `FITReadSession` as they stream out (one, several chained, or those of a nested
/// archive); positions count within a unit, so a read resumes by unit and by position.
struct FITInputUnit {
    /// The path, or `archive!entry`.
    let name: String
    /// Bytes as stored (for the stream's fingerprint).
    let size: UInt64
    /// Whether its first bytes are FIT's (recognising an input by content, not by name).
    let probe: () -> Bool
    let read: (FITReadSession) throws -> Void
}
