import Foundation
import HealthETLCollectorSQLite
import HealthETLCore
import HealthETLSQLite
import HealthETLStore
import HealthETLTestSupport
import Testing

/// The docs tell the truth: the command reference is the command line's own help, the guides
/// name only options that exist, the tables listed are the schemas' tables, and the plugin API
/// listed is the code's. Each check fails when code or docs change without the other.
@Suite struct DocsTruthTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-docs")

    func helpDump() throws -> HelpDump {
        let result = try runner.run(["--experimental-dump-help"])
        try #require(result.exitCode == 0, "\(result.standardError)")
        return try JSONDecoder().decode(HelpDump.self, from: Data(result.standardOutput.utf8))
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: TestPaths.repository(relative), encoding: .utf8)
    }

    /// `make docs` runs this with HEALTHETL_UPDATE_DOCS=1 to write the page.
    @Test func commandReferenceIsTheCommandLinesOwnHelp() throws {
        let rendered = CommandReference.render(try helpDump())
        let path = TestPaths.repository("Docs/commands.md")
        if ProcessInfo.processInfo.environment["HEALTHETL_UPDATE_DOCS"] == "1" {
            try rendered.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let committed = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(committed == rendered, "Docs/commands.md differs from the command line's help: run `make docs`")
    }

    @Test func everyCommandTakesTheGlobalOptionsAfterItsName() throws {
        let dump = try helpDump()
        for (name, command) in dump.commands where command.visibleSubcommands.isEmpty {
            let missing = CommandReference.globalOptions.filter { !command.optionNames.contains($0) }
            #expect(missing.isEmpty, "\(name) does not take \(missing)")
        }
        // And they work there, not only parse: the store named after the command is the one used.
        let store = directory.child("after")
        let result = try runner.run(["queue", "list", "--store", store, "--json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: store + "/" + DatabaseDirectory.databaseName))
    }

    @Test func guidesNameOnlyCommandsAndOptionsThatExist() throws {
        let dump = try helpDump()
        var problems: [String] = []
        for page in GuidePages.all {
            for line in GuidePages.codeLines(try read(page)) {
                problems += GuidePages.unknownCommandWords(in: line, dump: dump).map { "\(page): \($0) in `\(line)`" }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// A newcomer's path starts at the README: short, and linking every page of Docs/.
    @Test func readmeIsShortAndLinksEveryGuide() throws {
        let readme = try read("README.md")
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 200)
        let docs = try FileManager.default.contentsOfDirectory(atPath: TestPaths.repository("Docs"))
        for page in docs where page.hasSuffix(".md") {
            #expect(readme.contains("](Docs/\(page)"), "README.md does not link Docs/\(page)")
        }
    }

    @Test func everyRelativeLinkOfThePagesResolves() throws {
        var broken: [String] = []
        for page in GuidePages.all + ["Docs/commands.md"] {
            let folder = (page as NSString).deletingLastPathComponent
            for target in MarkdownLinks.relativeTargets(in: try read(page)) {
                let path = (folder.isEmpty ? target : folder + "/" + target)
                if !FileManager.default.fileExists(atPath: TestPaths.repository(path)) {
                    broken.append("\(page) → \(target)")
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test func storeTablesAreTheDocumentedOnes() throws {
        let path = directory.child("store")
        _ = try Store(directory: StoreDirectory(path: path))
        let documented = try DocumentedTables.names(in: read("Docs/store.md"))
        #expect(documented == (try Self.tables(at: path + "/" + DatabaseDirectory.databaseName)))
    }

    @Test func collectorTablesAreTheDocumentedOnes() throws {
        let path = directory.child("collector")
        _ = try SQLiteCollectorStorage(directory: path, users: ["me"], catalog: MetricCatalog.bundled())
        let documented = try DocumentedTables.names(in: read("Docs/collector.md"))
        #expect(documented == (try Self.tables(at: path + "/" + DatabaseDirectory.databaseName)))
    }

    static func tables(at path: String) throws -> Set<String> {
        let connection = try SQLiteConnection(path: path)
        let statement = try connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        var names: Set<String> = []
        while try statement.step() { names.insert(statement.text(0) ?? "") }
        return names
    }

    @Test func pluginsReadmeListsEverySourceEventAndSinkRequirement() throws {
        let readme = try read("Plugins/README.md")
        let events = try SwiftDeclarations.enumCases(in: read("Sources/HealthETLCore/PluginAPI/SourceEvent.swift"))
        #expect(events.count >= 5)
        let listed = Set(
            readme.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("- `.") else { return nil }
                return String(line.dropFirst(4).prefix { $0.isLetter || $0.isNumber })
            })
        #expect(listed == events, "SourceEvent's cases are \(events.sorted()); Plugins/README lists \(listed.sorted())")

        let requirements = try SwiftDeclarations.protocolRequirements(
            in: read("Sources/HealthETLCore/PluginAPI/SampleSink.swift"), protocol: "SampleSink")
        #expect(requirements.count >= 10)
        let block = try #require(SwiftDeclarations.codeBlock(in: readme, declaring: "protocol SampleSink"))
        let shown = SwiftDeclarations.protocolRequirements(in: block, protocol: "SampleSink")
        #expect(
            shown == requirements,
            "SampleSink requires \(requirements.sorted()); Plugins/README shows \(shown.sorted())")
    }

    @Test func everyJSONOptionTriedPrintsOneObject() throws {
        let store = directory.child("json")
        let sample = TestPaths.repository("SampleExports/apple-health-sample.zip")
        let commands: [[String]] = [
            ["plugins"], ["metrics"], ["import", sample], ["status"], ["queue", "list"], ["queue", "retry", "--dead"],
            ["queue", "purge", "--dead"], ["projections", "--local", "--metric", "step_count"],
            ["backup", "--out", directory.child("backup.sqlite")],
        ]
        for arguments in commands {
            let result = try runner.run(["--store", store] + arguments + ["--json"])
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
            let object = try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
            #expect(object is [String: Any], "\(arguments) --json printed \(result.standardOutput.prefix(200))")
        }
    }
}
