import ArgumentParser
import HealthETLCore
import HealthETLRuntime

/// `healthetl doctor`: what is wrong with this installation, and how to fix it.
struct DoctorCommand: AsyncParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the store, its files, the disk, the config, the collector and the retry queue.",
        discussion: """
            Checks that the store opens and passes PRAGMA quick_check, its schema, file modes
            (store 0700, files and token files 0600), free disk against the store's size, the
            config, the collector (reachable, TLS, the token accepted through GET /v1/healthz, its
            clock within 2 minutes of this machine's) and the retry queue (dead batches, the oldest
            waiting one). Each problem comes with its fix. It stores and sends no data.
            Exit 0: all good; 1: a problem.
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Option(help: ArgumentHelp("The collector to check (default: config.json).", valueName: "url"))
    var endpoint: String?

    @Option(help: ArgumentHelp("The token file to check (default: config.json).", valueName: "file"))
    var tokenFile: String?

    @Flag(help: "Print one JSON object: {ok, checks: [{name, verdict, detail, fix}]}.")
    var json = false

    func run() async throws {
        var overrides: [String: PluginSettings.Value] = [:]
        if let endpoint { overrides["endpoint"] = .text(endpoint) }
        if let tokenFile { overrides["token_file"] = .text(tokenFile) }
        let checks = await Doctor(store: global.storeDirectory, overrides: overrides).run()
        let healthy = !checks.contains { $0.verdict == .problem }
        if json {
            try JSONOutput.print(DoctorReport(ok: healthy, checks: checks))
        } else {
            for check in checks {
                let mark = check.verdict == .ok ? "ok     " : check.verdict == .problem ? "PROBLEM" : "skipped"
                print("\(mark)  \(check.name): \(check.detail)")
                if let fix = check.fix { print("         fix: \(fix)") }
            }
            print(healthy ? "All good." : "\(checks.count { $0.verdict == .problem }) problem(s) found.")
        }
        if !healthy { throw ExitCode(ExitStatus.failure.rawValue) }
    }
}

/// `doctor --json`.
struct DoctorReport: Encodable {
    var ok: Bool
    var checks: [DoctorCheck]
}
