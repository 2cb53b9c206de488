import Synchronization

/// How many batches are being written right now. Background projection refresh takes the
/// database only between them: during an upload that keeps the database busy, a day recomputed
/// between two batches was mostly dirtied again by the next one, and the recomputing took a fifth
/// of the collector's time; when uploads leave the database idle, it refreshes in those gaps.
final class IngestActivity: Sendable {
    private let writing = Atomic<Int>(0)

    var isWriting: Bool { writing.load(ordering: .relaxed) > 0 }

    func writing<T>(_ body: () async throws -> T) async rethrows -> T {
        writing.add(1, ordering: .relaxed)
        defer { writing.subtract(1, ordering: .relaxed) }
        return try await body()
    }
}
