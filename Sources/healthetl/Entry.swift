import ArgumentParser
import Foundation
import Logging

/// Runs the command line with the exit codes of the contract: 0 success, 1 failure,
/// 2 usage error, 3 partial.
@main
enum Entry {
    static func main() async {
        var jsonLogs = false
        do {
            var command = try HealthETL.parseAsRoot()
            let logging = Self.logging(of: command)
            logging.format.bootstrap(level: logging.level)
            jsonLogs = logging.format == .json
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            fail(failure.message, json: jsonLogs)
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
            fail(CommandFailure(error).message, json: jsonLogs)
            exit(ExitStatus.failure.rawValue)
        }
    }

    /// The failure on standard error: `error: …`, or with `--log-format json` a log object.
    static func fail(_ message: String, json: Bool) {
        guard json else { return printError("error: \(message)") }
        Logger(label: "healthetl").error("\(message)")
    }
}

extension Entry {
    /// The command's `--log-format` and `--log-level` (text at info when not given).
    static func logging(of command: any ParsableCommand) -> (format: LogFormat, level: Logger.Level) {
        let global = (command as? any TakesGlobalOptions)?.global ?? (command as? HealthETL)?.global
        return (global?.logFormat ?? .text, global?.logLevel.flatMap(Logger.Level.init(rawValue:)) ?? .info)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
