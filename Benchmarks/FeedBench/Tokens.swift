import Foundation

/// The tokens file's `USER TOKEN` lines, in order.
enum Tokens {
    static func read(_ path: String) throws -> [(user: String, token: String)] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }
}
