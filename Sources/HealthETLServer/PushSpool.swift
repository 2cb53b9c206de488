import Foundation
import HealthETLCollectorStorage
import HealthETLWire

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one push's decoded body to a new private file (0600, created exclusively) in the spool
/// directory, taking each write from the receiver's decoded-bytes budget; `close()` gives back
/// the budget and removes the file.
final class PushSpool {
    let path: String
    private let budget: DecodedBytesBudget
    private var descriptor: Int32
    private(set) var bytes = 0

    enum Failure: Error {
        /// The budget of the pushes in flight is spent.
        case budgetSpent
        /// The file cannot be created or written: why.
        case unwritable(String)
    }

    /// Spool files left by a receiver that was killed begin so: removed when the next one starts.
    static let prefix = "push-"

    init(directory: String, budget: DecodedBytesBudget) throws(Failure) {
        self.budget = budget
        path = directory + "/" + Self.prefix + UUID().uuidString + ".json"
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure.unwritable(String(cString: strerror(errno))) }
    }

    deinit { close() }

    /// Appends decoded bytes.
    /// - Throws: `Failure`.
    func write(_ chunk: UnsafeRawBufferPointer) throws(Failure) {
        guard budget.take(chunk.count) else { throw Failure.budgetSpent }
        bytes += chunk.count
        var offset = 0
        while offset < chunk.count {
            let written = Glibc.write(descriptor, chunk.baseAddress! + offset, chunk.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw Failure.unwritable(String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// The body written so far, for the committer to read (the file stays until `close()`).
    var body: PushBody { PushBody(path: path, bytes: bytes) }

    /// Removes the file and gives its bytes back to the budget; again is harmless.
    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
        unlink(path)
        budget.give(bytes)
    }

    /// Creates the spool directory (0700) when missing, refuses one others can read, and removes
    /// the spool files a killed receiver left in it.
    /// - Throws: `CollectorError` saying what to do.
    static func prepare(directory: String) throws {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw CollectorError("cannot create the spool directory \(directory): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw CollectorError("the spool directory \(directory) is not a directory; move it aside")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw CollectorError("others can read the spool directory \(directory); run `chmod 700 \(directory)`")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".json") {
            unlink(directory + "/" + name)
        }
    }
}
