import HealthETLCore

/// Which days each source has data on: a row per source (and one for any source), filled where
/// it has samples and marked as a gap where it has none.
struct CoverageChart {
    let counts: [SourceDayCount]
    let days: ClosedRange<CivilDate>

    private static let labelWidth = 170.0
    private static let rowHeight = 16.0
    private static let width = 960.0

    /// A run of consecutive days with data.
    struct Run {
        var first: Int
        var last: Int
        var samples: Int
    }

    /// The rows, any source first, each as its runs of days with data (day indexes in the range).
    var rows: [(label: String, runs: [Run])] {
        let first = days.lowerBound.daysSinceEpoch
        var bySource: [String: [Int: Int]] = [:]
        var any: [Int: Int] = [:]
        for count in counts {
            let index = Int(count.day.daysSinceEpoch - first)
            bySource[count.source, default: [:]][index, default: 0] += count.samples
            any[index, default: 0] += count.samples
        }
        return [("Any source", Self.runs(any))] + bySource.keys.sorted().map { ($0, Self.runs(bySource[$0]!)) }
    }

    static func runs(_ samplesByDay: [Int: Int]) -> [Run] {
        var runs: [Run] = []
        for day in samplesByDay.keys.sorted() {
            if let last = runs.last?.last, last == day - 1 {
                runs[runs.count - 1].last = day
                runs[runs.count - 1].samples += samplesByDay[day]!
            } else {
                runs.append(Run(first: day, last: day, samples: samplesByDay[day]!))
            }
        }
        return runs
    }

    /// Stretches of at least `minimumDays` days without any data, longest first.
    func gaps(minimumDays: Int = 2) -> [(first: CivilDate, last: CivilDate, days: Int)] {
        let runs = rows[0].runs
        let dayCount = days.dayCount
        var gaps: [(Int, Int)] = []
        var next = 0
        for run in runs {
            if run.first > next { gaps.append((next, run.first - 1)) }
            next = run.last + 1
        }
        if next < dayCount { gaps.append((next, dayCount - 1)) }
        return gaps.filter { $0.1 - $0.0 + 1 >= minimumDays }
            .sorted { ($0.1 - $0.0, $1.0) > ($1.1 - $1.0, $0.0) }
            .map {
                (days.lowerBound.adding(days: Int64($0.0)), days.lowerBound.adding(days: Int64($0.1)), $0.1 - $0.0 + 1)
            }
    }

    func append(to bytes: inout [UInt8]) {
        let rows = rows
        let dayCount = days.dayCount
        let plotWidth = Self.width - Self.labelWidth - 8
        let slot = plotWidth / Double(dayCount)
        let height = Double(rows.count) * Self.rowHeight + 4
        ByteText.append(
            "<svg class=\"chart coverage\" viewBox=\"0 0 \(Int(Self.width)) \(Int(height))\" role=\"img\" aria-label=\"Data coverage per source and day\">",
            to: &bytes)
        for (row, (label, runs)) in rows.enumerated() {
            let top = Double(row) * Self.rowHeight + 2
            ByteText.append("<text class=\"axis\" x=\"\(Int(Self.labelWidth - 6))\" y=\"", to: &bytes)
            HTMLText.appendCoordinate(top + 11, to: &bytes)
            ByteText.append("\" text-anchor=\"end\">", to: &bytes)
            HTMLText.append(escaping: label.count > 28 ? String(label.prefix(27)) + "…" : label, to: &bytes)
            ByteText.append("</text><rect class=\"gap\" x=\"\(Int(Self.labelWidth))\" y=\"", to: &bytes)
            HTMLText.appendCoordinate(top, to: &bytes)
            ByteText.append("\" width=\"", to: &bytes)
            HTMLText.appendCoordinate(plotWidth, to: &bytes)
            ByteText.append("\" height=\"\(Int(Self.rowHeight - 3))\"/>", to: &bytes)
            for run in runs {
                ByteText.append("<rect class=\"covered\" data-source=\"", to: &bytes)
                HTMLText.append(escaping: label, to: &bytes)
                ByteText.append("\" x=\"", to: &bytes)
                HTMLText.appendCoordinate(Self.labelWidth + Double(run.first) * slot, to: &bytes)
                ByteText.append("\" y=\"", to: &bytes)
                HTMLText.appendCoordinate(top, to: &bytes)
                ByteText.append("\" width=\"", to: &bytes)
                HTMLText.appendCoordinate(max(Double(run.last - run.first + 1) * slot, 0.5), to: &bytes)
                ByteText.append("\" height=\"\(Int(Self.rowHeight - 3))\"><title>", to: &bytes)
                HTMLText.append(escaping: label + ": ", to: &bytes)
                TimeText.appendDay(days.lowerBound.adding(days: Int64(run.first)), to: &bytes)
                if run.last > run.first {
                    ByteText.append(" – ", to: &bytes)
                    TimeText.appendDay(days.lowerBound.adding(days: Int64(run.last)), to: &bytes)
                }
                HTMLText.append(escaping: ", \(HTMLText.figure(Double(run.samples))) samples", to: &bytes)
                ByteText.append("</title></rect>", to: &bytes)
            }
        }
        ByteText.append("</svg>", to: &bytes)
    }
}
