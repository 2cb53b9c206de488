import Foundation

// healthetl-export-gen: a synthetic, real-format Apple Health export for benchmarks.

let standardError = FileHandle.standardError

do {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    let summary = try ExportGenerator(options: options).run()
    standardError.write(Data((summary.json + "\n").utf8))
} catch let error as UsageError {
    let text = error.description.isEmpty ? Options.usage : "error: \(error.description)\n\n\(Options.usage)"
    if error.description.isEmpty {
        print(text)
        exit(0)
    }
    standardError.write(Data((text + "\n").utf8))
    exit(2)
} catch {
    standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
