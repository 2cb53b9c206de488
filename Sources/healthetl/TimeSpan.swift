import ArgumentParser
import HealthETLCore

/// A duration as people write it on a command line (`45s`, `90m`, `36h`, `7d`, `2w`): the one
/// type every duration option takes, read by argument-parser.
struct TimeSpan: ExpressibleByArgument, Sendable, Equatable {
    let seconds: Int64
    private let text: String

    init?(argument: String) {
        guard let seconds = DurationText.seconds(argument) else { return nil }
        self.seconds = seconds
        self.text = argument
    }

    private init(seconds: Int64, unit: String, count: Int64) {
        self.seconds = seconds
        self.text = "\(count)\(unit)"
    }

    static func seconds(_ count: Int64) -> TimeSpan { TimeSpan(seconds: count, unit: "s", count: count) }
    static func minutes(_ count: Int64) -> TimeSpan { TimeSpan(seconds: count * 60, unit: "m", count: count) }
    static func hours(_ count: Int64) -> TimeSpan { TimeSpan(seconds: count * 3600, unit: "h", count: count) }
    static func days(_ count: Int64) -> TimeSpan { TimeSpan(seconds: count * 86_400, unit: "d", count: count) }

    var duration: Duration { .seconds(seconds) }

    var defaultValueDescription: String { text }

    static var defaultCompletionKind: CompletionKind { .default }
}
