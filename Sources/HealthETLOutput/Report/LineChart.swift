import HealthETLCore

/// A daily figure as a line with a dot per day; the line breaks where days are missing, so a gap
/// reads as one. Each dot carries its metric, day and value as data attributes.
struct LineChart {
    let series: HTMLReportData.Series
    let days: ClosedRange<CivilDate>
    /// Decimals in the dots' titles.
    let decimals: Int

    func append(to bytes: inout [UInt8]) {
        let points = series.rollups.compactMap { rollup in
            HTMLReportData.Series.value(of: rollup).map { (rollup.day, $0) }
        }
        let low = points.map(\.1).min() ?? 0
        let high = points.map(\.1).max() ?? 1
        let pad = max((high - low) * 0.1, 1)
        let frame = ChartFrame(days: days, low: max(low - pad, 0), high: high + pad)
        frame.appendOpening(label: series.title, unit: series.unit, to: &bytes)
        // Over a long range the day-to-day noise hides the trend: the line is then the mean of
        // the last 7 days (with at least 3 of them measured), the days themselves faint dots.
        let trend = frame.dayCount > 60
        let line = trend ? Self.weeklyMeans(points) : points
        if line.count > 1 {
            ByteText.append("<path class=\"line\" d=\"", to: &bytes)
            var previous: CivilDate?
            for (day, value) in line {
                let continues = previous.map { day.daysSinceEpoch - $0.daysSinceEpoch == 1 } ?? false
                bytes.append(continues ? UInt8(ascii: "L") : UInt8(ascii: "M"))
                HTMLText.appendCoordinate(frame.centre(of: day), to: &bytes)
                bytes.append(UInt8(ascii: " "))
                HTMLText.appendCoordinate(frame.y(value), to: &bytes)
                previous = day
            }
            ByteText.append("\"/>", to: &bytes)
        }
        let radius = frame.slot >= 4 ? 2.5 : 1.2
        for (day, value) in points {
            ByteText.append(
                trend ? "<circle class=\"dot faint\" data-metric=\"" : "<circle class=\"dot\" data-metric=\"",
                to: &bytes)
            HTMLText.append(escaping: series.metric, to: &bytes)
            ByteText.append("\" data-day=\"", to: &bytes)
            TimeText.appendDay(day, to: &bytes)
            ByteText.append("\" data-value=\"", to: &bytes)
            ByteText.append(value, to: &bytes)
            ByteText.append("\" cx=\"", to: &bytes)
            HTMLText.appendCoordinate(frame.centre(of: day), to: &bytes)
            ByteText.append("\" cy=\"", to: &bytes)
            HTMLText.appendCoordinate(frame.y(value), to: &bytes)
            ByteText.append("\" r=\"\(radius)\"><title>", to: &bytes)
            TimeText.appendDay(day, to: &bytes)
            HTMLText.append(escaping: ": \(HTMLText.figure(value, decimals: decimals)) \(series.unit)", to: &bytes)
            ByteText.append("</title></circle>", to: &bytes)
        }
        frame.appendClosing(to: &bytes)
    }

    /// For each day with a value, the mean of the values of it and the 6 days before, where at
    /// least 3 of those 7 days have one.
    static func weeklyMeans(_ points: [(CivilDate, Double)]) -> [(CivilDate, Double)] {
        var means: [(CivilDate, Double)] = []
        var window: [(CivilDate, Double)] = []
        var sum = 0.0
        for point in points {
            window.append(point)
            sum += point.1
            while let first = window.first, point.0.daysSinceEpoch - first.0.daysSinceEpoch >= 7 {
                sum -= first.1
                window.removeFirst()
            }
            if window.count >= 3 { means.append((point.0, sum / Double(window.count))) }
        }
        return means
    }
}
