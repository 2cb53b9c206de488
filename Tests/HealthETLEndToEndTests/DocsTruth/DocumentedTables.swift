import Foundation

/// The tables a page lists under its `## Tables` heading: the first column of its table, in backticks.
enum DocumentedTables {
    struct MissingSection: Error, CustomStringConvertible {
        var description: String { "the page has no `## Tables` section" }
    }

    static func names(in page: String) throws -> Set<String> {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "## Tables" }) else {
            throw MissingSection()
        }
        var names: Set<String> = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("| `") else { continue }
            names.insert(String(line.dropFirst(3).prefix { $0 != "`" }))
        }
        return names
    }
}
