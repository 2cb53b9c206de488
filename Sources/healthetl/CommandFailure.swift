import HealthETLCore
import HealthETLRuntime

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
        // Errors in what the user asked for, not in what happened.
        case let error as RegistryError: self.init(error.description, exitCode: .usage)
        case let error as ProjectionQueryError: self.init(error.description, exitCode: .usage)
        case let error as ExportError:
            guard case .cannotWrite = error else { self.init(error.description, exitCode: .usage); return }
            self.init(error.description)
        case let error as SimulationError:
            guard case .conflictingOptions = error else { self.init(error.description); return }
            self.init(error.description, exitCode: .usage)
        case let error as CustomStringConvertible: self.init(error.description)
        default: self.init("\(error)")
        }
    }

    /// Runs a library entry point, turning what it throws into a `CommandFailure`.
    static func wrapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Runs an asynchronous library entry point, turning what it throws into a `CommandFailure`.
    static func wrapping<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw CommandFailure(error)
        }
    }
}
