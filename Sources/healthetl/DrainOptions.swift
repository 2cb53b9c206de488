import ArgumentParser
import HealthETLCore

/// `--drain-timeout` on the long-running commands (`serve`, `receive`, `follow`): after SIGTERM
/// or SIGINT, how long the work in flight may take to finish before the command exits anyway.
struct DrainOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "After SIGTERM or SIGINT, how long the work in flight may take to finish (e.g. 10s).",
            valueName: "duration"))
    var drainTimeout = "10s"

    func validate() throws {
        guard DurationText.seconds(drainTimeout) != nil else {
            throw ValidationError("--drain-timeout takes a duration, such as 10s or 1m")
        }
    }

    var duration: Duration { .seconds(DurationText.seconds(drainTimeout) ?? 10) }
}
