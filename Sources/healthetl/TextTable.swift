/// A plain-text table with left-aligned columns, for human output.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []

    init(_ header: String...) {
        self.header = header
    }

    mutating func add(_ cells: String...) {
        rows.append(cells)
    }

    var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { column in
            all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
