/// A plugin that reads one kind of health data and emits records tagged with lanes.
///
/// Adapters know formats and nothing about storage or upload: they emit `SourceEvent`s, and a
/// `.checkpoint` after every record they want covered by a commit. The pipeline commits the
/// records before a checkpoint together with its cursor, so an adapter resumed from
/// `SourceInput.resumeFrom` must emit the same records after that cursor as a fresh read would.
public protocol SourceAdapter: SourcePlugin {
    /// Reads the input, handing every record to `handler`.
    /// - Throws: only for failures that make the read meaningless (unreadable file, hostile input)
    ///   and for errors `handler` throws; damage after usable data is reported in the result.
    func read(_ input: SourceInput, into handler: inout some SourceEventHandler) throws
        -> SourceReadReport
}
