import Foundation

/// Prints one JSON document for `--json`: sorted keys, so scripts and diffs see a stable shape.
enum JSONOutput {
    static func print<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        Swift.print(String(decoding: data, as: UTF8.self))
    }
}
