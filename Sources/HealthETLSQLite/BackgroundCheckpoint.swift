import CSQLite
import Foundation

/// Copies the write-ahead log into the database on a thread of its own, so that a writer
/// committing batch after batch does not wait for a checkpoint's two `fdatasync`s.
///
/// SQLite checkpoints on the committing thread once the log holds 1,000 pages: in a
/// 250,000-record import four times, each a stop of 10–17 ms for the writer, and for the reader
/// too once the writer's queue was full. Here the commit that finds the log that long starts a
/// passive checkpoint on this thread, of the pages the log holds then, and goes on. The first
/// commit after that checkpoint finished copies, on its own connection, the few pages committed
/// meanwhile: nothing in the log is then left uncopied, and the next transaction starts the log
/// over from its beginning, so it stays as long as it was without this. A log four times that
/// long waits for the thread first (a disk slower than the writer).
package final class BackgroundCheckpoint: @unchecked Sendable {
    /// The log's length, in pages, that starts a checkpoint: SQLite's own default.
    package static let defaultThreshold: Int32 = 1_000

    private enum Phase {
        case idle
        case copying
        /// The thread's checkpoint ended; the writer copies what was committed since.
        case copied
    }

    private let path: String
    private let threshold: Int32
    private let condition = NSCondition()
    private var phase = Phase.idle
    private var started = false
    private var stopping = false
    private var ended = false
    /// Set when the thread cannot open its connection: the writer then checkpoints itself.
    private var unavailable = false
    private var copiedInBackground = 0

    init(path: String, threshold: Int32 = defaultThreshold) {
        self.path = path
        self.threshold = threshold
    }

    /// Checkpoints the thread has run.
    var checkpointsCopiedInBackground: Int {
        condition.lock()
        defer { condition.unlock() }
        return copiedInBackground
    }

    /// Called on the writer's thread after each commit (SQLite's WAL hook), with the log's pages.
    func committed(pages: Int32, writer: OpaquePointer) {
        condition.lock()
        if phase == .copying, pages >= 4 * threshold {
            while phase == .copying { condition.wait() }
        }
        let catchUp = phase == .copied || (unavailable && pages >= threshold)
        if phase == .copied { phase = .idle }
        if phase == .idle, !catchUp, pages >= threshold {
            phase = .copying
            startIfNeeded()
            condition.broadcast()
        }
        condition.unlock()
        if catchUp { sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) }
    }

    /// Ends the thread, waiting for a checkpoint under way; before the writer's connection closes.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while started, !ended { condition.wait() }
    }

    private func startIfNeeded() {
        guard !started else { return }
        started = true
        let thread = Thread { [self] in run() }
        thread.name = "healthetl-checkpoint"
        thread.start()
    }

    private func run() {
        // A connection finds the log on its first read; until then a checkpoint does nothing.
        var connection = try? SQLiteConnection(path: path)
        if (try? connection?.scalar("SELECT count(*) FROM sqlite_schema")) == nil { connection = nil }
        condition.lock()
        if connection == nil {
            unavailable = true
            phase = .idle
            condition.broadcast()
        }
        while let handle = connection?.handle {
            while phase != .copying, !stopping { condition.wait() }
            if stopping { break }
            condition.unlock()
            // Passive: copies what no reader still needs, and never waits for the writer.
            sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            condition.lock()
            copiedInBackground += 1
            phase = .copied
            condition.broadcast()
        }
        condition.unlock()
        // Closed before `ended` lets the writer's connection close: the last one to close
        // checkpoints what is left and removes the log.
        connection = nil
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }
}
