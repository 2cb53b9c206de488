import Foundation

/// The links of a Markdown page that point into the repository: `[text](path)` and
/// `[text](path#anchor)`, without web addresses and in-page anchors.
enum MarkdownLinks {
    static func relativeTargets(in page: String) -> [String] {
        var targets: [String] = []
        var rest = Substring(page)
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            let target = String(after[..<close].prefix { $0 != "#" && $0 != " " })
            rest = after[close...]
            if target.isEmpty || target.contains("://") || target.hasPrefix("mailto:") { continue }
            targets.append(target)
        }
        return targets
    }
}
