import Foundation

/// What a Swift file declares, read from its text: enough to compare a listing in the docs with
/// the code (enum cases, protocol requirements), not a parser of Swift.
enum SwiftDeclarations {
    /// The names of every `case` line's cases.
    static func enumCases(in source: String) -> Set<String> {
        Set(
            source.split(separator: "\n").compactMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("case ") else { return nil }
                return String(trimmed.dropFirst(5).prefix { $0.isLetter || $0.isNumber })
            })
    }

    /// The names of the `func`s and `var`s inside `protocol NAME { … }`.
    static func protocolRequirements(in source: String, protocol name: String) -> Set<String> {
        guard let start = source.range(of: "protocol \(name)") else { return [] }
        var depth = 0
        var body = ""
        for character in source[start.upperBound...] {
            if character == "{" { depth += 1 }
            if character == "}" {
                depth -= 1
                if depth == 0 { break }
            }
            if depth > 0 { body.append(character) }
        }
        var names: Set<String> = []
        for line in body.split(separator: "\n") {
            var words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")[...]
            if words.first == "static" { words = words.dropFirst() }
            guard let keyword = words.first, keyword == "func" || keyword == "var", words.count > 1 else { continue }
            names.insert(String(words[words.startIndex + 1].prefix { $0.isLetter || $0.isNumber }))
        }
        return names
    }

    /// The fenced code block of a page that contains `text`.
    static func codeBlock(in page: String, declaring text: String) -> String? {
        page.components(separatedBy: "```").enumerated().first { $0.offset % 2 == 1 && $0.element.contains(text) }?
            .element
    }
}
