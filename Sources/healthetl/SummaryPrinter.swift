import Foundation

/// A command's closing summary: text or one JSON object, on standard output, or on standard
/// error when the command's data went to standard output.
enum SummaryPrinter {
    static func show<Summary: Encodable>(
        _ summary: Summary, json: Bool, dataOnStandardOutput: Bool, text: (Summary) -> String
    ) throws {
        var shown: String
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            shown = String(decoding: try encoder.encode(summary), as: UTF8.self)
        } else {
            shown = text(summary)
        }
        if dataOnStandardOutput {
            shown += "\n"
            FileHandle.standardError.write(Data(shown.utf8))
        } else {
            print(shown)
        }
    }
}
