import ArgumentParser
import Foundation

/// Runs the command line with the exit codes of the contract: 0 success, 1 failure,
/// 2 usage error, 3 partial.
@main
enum Entry {
    static func main() async {
        do {
            var command = try HealthETL.parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            printError("error: \(failure.message)")
            exit(failure.exitCode.rawValue)
        } catch {
            let code = HealthETL.exitCode(for: error)
            if code == .success {
                print(HealthETL.fullMessage(for: error))
                exit(0)
            }
            if code == .validationFailure {
                printError(HealthETL.fullMessage(for: error))
                exit(ExitStatus.usage.rawValue)
            }
            if error is ExitCode {
                exit(code.rawValue)
            }
            printError("error: \(CommandFailure(error).message)")
            exit(ExitStatus.failure.rawValue)
        }
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
