import Foundation

/// Docs/commands.md as the command line describes itself: every command, subcommand, argument and
/// option, with its help, value, default and the command's discussion. The global options are
/// listed once; every command takes them.
enum CommandReference {
    static let globalOptions = ["--store", "--catalog", "--log-format", "--log-level"]
    /// Listed once, at the top, rather than under every command.
    static let everywhere = Set(globalOptions + ["--help", "--version"])

    static func render(_ dump: HelpDump) -> String {
        let root = dump.command
        var text = """
            # Command reference

            Every `healthetl` command and option, generated from the command line's own help
            (`healthetl --experimental-dump-help`) by `make docs`; `make test` fails when this page and
            the command line differ. The guides linked from the [README](../README.md) say when to use
            each; `healthetl COMMAND --help` prints the same text.

            \(root.abstract ?? "")

            \(paragraphs(root.discussion ?? ""))

            ## Global options

            Every command takes these, before or after its name (`healthetl --store DIR status` or
            `healthetl status --store DIR`). Every command also takes `-h, --help`;
            `healthetl --version` prints healthetl's version and the SQLite, libxml2 and zstd it runs against.

            """
        text += "\n" + table(root.visibleArguments.filter { globalOptions.contains($0.spelled) })
        text += "\n## Commands\n\n"
        for (name, command) in dump.commands {
            text += "- [`\(name)`](#\(anchor(name))): \(command.abstract ?? "")\n"
        }
        for (name, command) in dump.commands {
            text += "\n## \(name)\n\n\(command.abstract ?? "")\n"
            if let discussion = command.discussion, !discussion.isEmpty {
                text += "\n" + paragraphs(discussion) + "\n"
            }
            let subcommands = command.visibleSubcommands
            if !subcommands.isEmpty {
                text += "\nSubcommands: "
                text +=
                    subcommands.map { "[`\($0.commandName)`](#\(anchor(name + " " + $0.commandName)))" }
                    .joined(separator: ", ") + ".\n"
            }
            let own = command.visibleArguments.filter { !everywhere.contains($0.spelled) }
            if !own.isEmpty { text += "\n" + table(own) }
        }
        return text
    }

    /// A markdown table of arguments: name, value, default, help.
    private static func table(_ arguments: [HelpDump.Argument]) -> String {
        var rows = "| argument | value | default | what it does |\n|---|---|---|---|\n"
        for argument in arguments {
            let names = (argument.names ?? []).map(\.spelled)
            let spelled = names.isEmpty ? argument.spelled : names.joined(separator: ", ")
            let takesValue = argument.kind == "option"
            let value = takesValue ? "`<\(cell(argument.valueName ?? "value"))>`" : ""
            let repeats = argument.isRepeating ? " (repeatable)" : ""
            let required = argument.isOptional ? "" : "required"
            let fallback = argument.defaultValue.map { "`\($0)`" } ?? required
            rows += "| `\(spelled)`\(repeats) | \(value) | \(fallback) | \(cell(argument.abstract ?? "")) |\n"
        }
        return rows
    }

    /// Help text as markdown: lines indented or in a list stay as they are (in a block); the
    /// rest joins into paragraphs.
    private static func paragraphs(_ text: String) -> String {
        text.components(separatedBy: "\n\n").map { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.contains(where: { $0.hasPrefix(" ") }) { return "```text\n" + block + "\n```" }
            return lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        }.joined(separator: "\n\n")
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// GitHub's anchor for a heading: lower case, spaces to hyphens.
    static func anchor(_ heading: String) -> String {
        heading.lowercased().replacingOccurrences(of: " ", with: "-")
    }
}
