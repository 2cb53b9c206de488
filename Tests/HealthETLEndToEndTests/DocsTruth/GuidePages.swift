import Foundation
import HealthETLTestSupport

/// The pages people read (README, the guides, the plugin API), and the `healthetl …` lines in
/// their code: what a reader would type.
enum GuidePages {
    /// Generated pages are checked apart (the reference) or quote no commands (the bench report).
    static let generated: Set<String> = ["Docs/commands.md", "Docs/bench-report.md"]

    static var all: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.repository("Docs"))) ?? []
        let guides = docs.filter { $0.hasSuffix(".md") }.map { "Docs/" + $0 }.filter { !generated.contains($0) }
        return ["README.md", "Plugins/README.md"] + guides.sorted()
    }

    /// The lines of fenced code blocks and the inline code spans of the other lines.
    static func codeLines(_ page: String) -> [String] {
        var lines: [String] = []
        var inBlock = false
        for line in page.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            if inBlock {
                lines.append(line)
            } else {
                let spans = line.components(separatedBy: "`")
                lines += stride(from: 1, to: spans.count, by: 2).map { spans[$0] }
            }
        }
        return lines
    }

    /// Words after `healthetl` that name no command, and options the command does not take.
    static func unknownCommandWords(in line: String, dump: HelpDump) -> [String] {
        var problems: [String] = []
        var rest = Substring(line)
        while let range = rest.range(of: "healthetl") {
            let after = rest[range.upperBound...]
            rest = after
            guard after.first == " " else { continue }  // healthetl-bench, healthetl.sqlite, healthetl_…
            problems += check(tokens(after), dump: dump)
        }
        return problems
    }

    private static func tokens(_ text: Substring) -> [String] {
        var found: [String] = []
        for word in text.split(separator: " ") {
            if ["|", ";", "&&", "||", ">", ">>", "2>&1", "\\"].contains(word) || word.hasPrefix("#") { break }
            found.append(String(word))
        }
        return found
    }

    private static func check(_ tokens: [String], dump: HelpDump) -> [String] {
        let valueOptions = Set(
            allCommands(dump.command).flatMap { ($0.arguments ?? []).filter { $0.kind == "option" } }
                .flatMap { ($0.names ?? []).map(\.spelled) })
        let globals = Set(CommandReference.globalOptions + ["--help", "--version", "-h"])
        var problems: [String] = []
        var index = 0
        func optionName(_ token: String) -> String {
            String(token.prefix { $0 != "=" }).trimmingCharacters(in: CharacterSet(charactersIn: "),.:`'\""))
        }
        while index < tokens.count, tokens[index].hasPrefix("-") {
            let name = optionName(tokens[index])
            if !globals.contains(name) { problems.append("\(name) before the command") }
            index += valueOptions.contains(name) && !tokens[index].contains("=") ? 2 : 1
        }
        var command = dump.command
        var path = "healthetl"
        while index < tokens.count,
            let sub = command.visibleSubcommands.first(where: { $0.commandName == tokens[index] })
        {
            command = sub
            path += " " + sub.commandName
            index += 1
        }
        if path == "healthetl", index < tokens.count {
            let word = tokens[index]
            // Placeholders (COMMAND, <command>, …) and prose stand for a command; a lower-case word is one.
            if word.allSatisfy({ $0.isLowercase || $0 == "-" }), word.first?.isLetter == true {
                problems.append("no command `\(word)`")
            }
            return problems
        }
        // A command whose actions are subcommands takes their options (the default one's, first).
        let taken = command.optionNames.union(command.visibleSubcommands.flatMap(\.optionNames)).union(globals)
        for token in tokens[index...] where token.hasPrefix("--") {
            let name = optionName(token)
            if name.count > 2, !taken.contains(name) { problems.append("`\(path)` takes no \(name)") }
        }
        return problems
    }

    private static func allCommands(_ command: HelpDump.Command) -> [HelpDump.Command] {
        [command] + (command.subcommands ?? []).flatMap(allCommands)
    }
}
