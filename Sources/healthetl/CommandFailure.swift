import HealthETLCore
import HealthETLStore

/// An error the user sees: one message saying what went wrong and what to do, and an exit code.
struct CommandFailure: Error {
    var message: String
    var exitCode: ExitStatus

    init(_ message: String, exitCode: ExitStatus = .failure) {
        self.message = message
        self.exitCode = exitCode
    }

    /// Wraps the library errors whose descriptions are written for users.
    init(_ error: any Error) {
        switch error {
        case let failure as CommandFailure: self = failure
        case let error as StoreError: self.init(error.description)
        case let error as CatalogError: self.init(error.description)
        case let error as SQLiteError: self.init(error.description)
        default: self.init("\(error)")
        }
    }
}
