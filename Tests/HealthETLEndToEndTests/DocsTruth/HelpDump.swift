import Foundation

/// The command line's own description of itself (`healthetl --experimental-dump-help`,
/// argument-parser's format): the one source the command reference is made from.
struct HelpDump: Decodable {
    struct Name: Decodable, Hashable {
        let kind: String
        let name: String

        var spelled: String { kind == "short" ? "-" + name : "--" + name }
    }

    struct Argument: Decodable {
        let kind: String
        let names: [Name]?
        let preferredName: Name?
        let valueName: String?
        let abstract: String?
        let defaultValue: String?
        let isOptional: Bool
        let isRepeating: Bool
        let shouldDisplay: Bool

        var isPositional: Bool { kind == "positional" }
        /// `--hot-window`, or `<path>` for a positional argument.
        var spelled: String { preferredName.map(\.spelled) ?? "<\(valueName ?? "value")>" }
    }

    struct Command: Decodable {
        let commandName: String
        let abstract: String?
        let discussion: String?
        let shouldDisplay: Bool
        let arguments: [Argument]?
        let subcommands: [Command]?

        var visibleArguments: [Argument] { (arguments ?? []).filter(\.shouldDisplay) }
        var visibleSubcommands: [Command] {
            (subcommands ?? []).filter { $0.shouldDisplay && $0.commandName != "help" }
        }
        /// Every long and short name the command takes.
        var optionNames: Set<String> {
            Set((arguments ?? []).flatMap { ($0.names ?? []).map(\.spelled) })
        }
    }

    let command: Command

    /// Every command below the root, with its full name (`healthetl queue retry`), parents first.
    var commands: [(name: String, command: Command)] {
        func walk(_ command: Command, _ name: String) -> [(name: String, command: Command)] {
            command.visibleSubcommands.flatMap { sub in
                [(name + " " + sub.commandName, sub)] + walk(sub, name + " " + sub.commandName)
            }
        }
        return walk(command, command.commandName)
    }
}
