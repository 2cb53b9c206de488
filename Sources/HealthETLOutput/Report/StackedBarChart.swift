import HealthETLCore

/// Daily totals as bars, each split by source (the parts the projections counted from each after
/// source priority, so they add up to the bar). Each day is a `<g>` carrying its metric, day and
/// value as data attributes, which the browser test reads back.
struct StackedBarChart {
    let series: HTMLReportData.Series
    let days: ClosedRange<CivilDate>

    /// Sources by their total over the range, largest first: the colour order.
    var sources: [String] {
        var totals: [String: Double] = [:]
        for rollup in series.rollups {
            for (source, value) in rollup.sumBySource { totals[source, default: 0] += value }
        }
        return totals.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
    }

    func append(to bytes: inout [UInt8]) {
        let high = series.rollups.compactMap(HTMLReportData.Series.value).max() ?? 0
        let frame = ChartFrame(days: days, low: 0, high: max(high, 1))
        let order = sources
        let colour = Dictionary(
            uniqueKeysWithValues: order.enumerated().map { ($1, min($0, ReportColours.sources - 1)) })
        frame.appendOpening(label: series.title, unit: series.unit, to: &bytes)
        for rollup in series.rollups {
            guard let total = HTMLReportData.Series.value(of: rollup) else { continue }
            ByteText.append("<g data-metric=\"", to: &bytes)
            HTMLText.append(escaping: series.metric, to: &bytes)
            ByteText.append("\" data-day=\"", to: &bytes)
            TimeText.appendDay(rollup.day, to: &bytes)
            ByteText.append("\" data-value=\"", to: &bytes)
            ByteText.append(total, to: &bytes)
            ByteText.append("\"><title>", to: &bytes)
            TimeText.appendDay(rollup.day, to: &bytes)
            HTMLText.append(escaping: ": \(HTMLText.figure(total)) \(series.unit)", to: &bytes)
            let parts = order.compactMap { source in rollup.sumBySource[source].map { (source, $0) } }
            for (source, value) in parts {
                HTMLText.append(escaping: "\n\(source): \(HTMLText.figure(value))", to: &bytes)
            }
            ByteText.append("</title>", to: &bytes)
            // Without a breakdown (a day read from a collector) the bar is one colour.
            var base = 0.0
            for (source, value) in parts.isEmpty ? [("", total)] : parts where value > 0 {
                frame.appendSegment(
                    styleClass: "s\(colour[source] ?? 0)", on: rollup.day, from: base, to: base + value, to: &bytes)
                base += value
            }
            ByteText.append("</g>", to: &bytes)
        }
        frame.appendClosing(to: &bytes)
    }
}
