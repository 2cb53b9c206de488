import Synchronization

/// The decoded bytes that the pushes in flight may spool together: each request's limit bounds
/// one push, this bounds all of them at once, so concurrent bombs cannot fill the disk.
final class DecodedBytesBudget: Sendable {
    let limit: Int
    private let held = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `count` more bytes; `false` (nothing taken) when that would pass the limit.
    func take(_ count: Int) -> Bool {
        held.withLock { held in
            guard count <= limit - held else { return false }
            held += count
            return true
        }
    }

    /// Gives back bytes taken.
    func give(_ count: Int) {
        held.withLock { $0 -= count }
    }

    /// Bytes taken now.
    var taken: Int { held.withLock { $0 } }
}
