import Foundation

/// The Python tools under Tests/tools, run in their pinned virtualenv (installed on first use).
public enum PythonTools {
    public static func run(_ script: String, _ arguments: [String]) throws -> CommandRunner.Result {
        let setup = try shell(TestPaths.repository("Tests/tools/test-venv.sh"), [])
        guard setup.exitCode == 0 else { return setup }
        let python = setup.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return try shell(python, [TestPaths.repository("Tests/tools/" + script)] + arguments)
    }

    private static func shell(_ executable: String, _ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner(executable: executable).run(arguments)
    }
}
