import Synchronization

/// Hands the archive `recognize` located to the `read` that follows it, so an import parses the
/// export's central directory once, not once to recognise it and again to read it.
///
/// One archive is kept, until a read of the same path takes it or a later recognition replaces
/// it; the read still reopens the file and uses what was kept only while the file is unchanged.
final class ArchiveHandoff: Sendable {
    private let kept = Mutex<LocatedArchive?>(nil)

    func keep(_ archive: LocatedArchive) {
        kept.withLock { $0 = archive }
    }

    /// The archive kept for `path`, no longer kept; nil if the last one located was another.
    func take(path: String) -> LocatedArchive? {
        kept.withLock { kept in
            guard let archive = kept, archive.path == path else { return nil }
            kept = nil
            return archive
        }
    }
}
