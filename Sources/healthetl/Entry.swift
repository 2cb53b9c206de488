import ArgumentParser
// jemalloc is the allocator (linked, not called): glibc's slowed an import by a fifth whenever
// one thread freed what another allocated, as the writer does with every record the reader makes.
import CJemalloc
import CJemallocSettings
import Foundation
import HealthETLRuntime
import Logging

/// Runs the command line with the exit codes of the contract: 0 success, 1 failure,
/// 2 usage error, 3 partial.
@main
enum Entry {
    static func main() async {
        do {
            var command = try HealthETL.parseAsRoot()
            let logging = Self.logging(of: command)
            logging.format.bootstrap(level: logging.level)
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

extension Entry {
    /// The command's `--log-format` and `--log-level` (text at info when not given).
    static func logging(of command: any ParsableCommand) -> (format: LogFormat, level: Logger.Level) {
        let global = (command as? any TakesGlobalOptions)?.global ?? (command as? HealthETL)?.global
        return (global?.logFormat ?? .text, global?.logLevel.flatMap(Logger.Level.init(rawValue:)) ?? .info)
    }
}

/// A message for people on standard error; with `--log-format json`, a log object.
func printError(_ message: String) {
    if LogFormat.jsonSelected.load(ordering: .relaxed) { return LogFormat.log(message: message) }
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
