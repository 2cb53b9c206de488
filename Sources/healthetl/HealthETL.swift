import ArgumentParser
import HealthETLRuntime

/// `healthetl`: the root command. Subcommands are listed here, explicitly.
struct HealthETL: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthetl",
        abstract: "Import, check, store and ship personal health data.",
        discussion: """
            Every command takes the global options --store, --catalog, --log-format and --log-level,
            before or after its name.

            Exit codes: 0 success, 1 failure, 2 usage error, 3 partial (some input could not be
            used; what could was committed).
            """,
        version: LinkedLibraries.versionText,
        subcommands: [
            ImportCommand.self, SimulateCommand.self, StatusCommand.self, UploadCommand.self, SyncCommand.self,
            QueueCommand.self,
            ProjectionsCommand.self, FollowCommand.self, InsightsCommand.self, ExportCommand.self, ReportCommand.self,
            ServeCommand.self, ReceiveCommand.self, MCPCommand.self, BackupCommand.self, DoctorCommand.self,
            MetricsCommand.self,
            PluginsCommand.self,
        ])

    /// Given before the command's name; each command also takes them after it.
    @OptionGroup var global: GlobalOptions
}
