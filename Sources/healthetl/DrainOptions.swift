import ArgumentParser
import HealthETLCore

/// `--drain-timeout` on the long-running commands (`serve`, `receive`, `follow`): after SIGTERM
/// or SIGINT, how long the work in flight may take to finish before the command exits anyway.
struct DrainOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "After SIGTERM or SIGINT, how long the work in flight may take to finish (e.g. 10s).",
            valueName: "duration"))
    var drainTimeout = TimeSpan.seconds(10)

    var duration: Duration { drainTimeout.duration }
}
