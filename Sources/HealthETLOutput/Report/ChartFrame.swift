import HealthETLCore

/// The drawing area of a chart over days: one slot per day of the range along x (so a day without
/// data is a visible gap), a value scale up y, its grid, and labels on both axes.
struct ChartFrame {
    static let width = 960.0
    static let height = 220.0
    private static let left = 56.0
    private static let right = 8.0
    private static let top = 22.0
    private static let bottom = 24.0

    let days: ClosedRange<CivilDate>
    let minimum: Double
    let maximum: Double

    /// A scale from `low` (0 for bars) to `high`, widened to round numbers.
    init(days: ClosedRange<CivilDate>, low: Double, high: Double) {
        self.days = days
        let step = Self.gridStep(for: max(high - low, 1e-9))
        minimum = (low / step).rounded(.down) * step
        maximum = max((high / step).rounded(.up) * step, minimum + step)
    }

    var dayCount: Int { days.dayCount }
    var plotWidth: Double { Self.width - Self.left - Self.right }
    var plotHeight: Double { Self.height - Self.top - Self.bottom }
    /// The width of one day's slot.
    var slot: Double { plotWidth / Double(dayCount) }

    /// The left edge of day `index`'s slot.
    func x(_ index: Int) -> Double { Self.left + Double(index) * slot }
    func y(_ value: Double) -> Double {
        Self.top + plotHeight * (1 - (value - minimum) / (maximum - minimum))
    }
    func index(of day: CivilDate) -> Int { Int(day.daysSinceEpoch - days.lowerBound.daysSinceEpoch) }

    /// Opens the `<svg>` (scaled to the page's width) and draws the grid and the labels.
    func appendOpening(label: String, unit: String, to bytes: inout [UInt8]) {
        ByteText.append(
            "<svg class=\"chart\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" role=\"img\" aria-label=\"",
            to: &bytes)
        HTMLText.append(escaping: label, to: &bytes)
        ByteText.append("\">", to: &bytes)
        let step = Self.gridStep(for: maximum - minimum)
        var value = minimum
        while value <= maximum + step / 2 {
            let y = y(value)
            ByteText.append(
                "<line class=\"grid\" x1=\"\(Int(Self.left))\" x2=\"\(Int(Self.width - Self.right))\" y1=\"", to: &bytes
            )
            HTMLText.appendCoordinate(y, to: &bytes)
            ByteText.append("\" y2=\"", to: &bytes)
            HTMLText.appendCoordinate(y, to: &bytes)
            ByteText.append("\"/><text class=\"axis\" x=\"\(Int(Self.left - 6))\" y=\"", to: &bytes)
            HTMLText.appendCoordinate(y + 4, to: &bytes)
            ByteText.append("\" text-anchor=\"end\">", to: &bytes)
            HTMLText.append(escaping: HTMLText.figure(value, decimals: step < 1 ? 1 : 0), to: &bytes)
            ByteText.append("</text>", to: &bytes)
            value += step
        }
        ByteText.append("<text class=\"axis\" x=\"4\" y=\"12\">", to: &bytes)
        HTMLText.append(escaping: unit, to: &bytes)
        ByteText.append("</text>", to: &bytes)
        appendDayLabels(to: &bytes)
    }

    /// The middle of `day`'s slot: where its dot sits.
    func centre(of day: CivilDate) -> Double { x(index(of: day)) + slot / 2 }

    /// A bar's width, four fifths of a slot (never thinner than a printable hairline).
    var barWidth: Double { max(slot * 0.8, 0.3) }

    /// One segment of `day`'s bar (centred in its slot): from `low` to `high` on the value scale, in the slot starting at `x`.
    func appendSegment(
        styleClass: String, on day: CivilDate, from low: Double, to high: Double, to bytes: inout [UInt8]
    ) {
        ByteText.append("<rect class=\"", to: &bytes)
        ByteText.append(styleClass, to: &bytes)
        ByteText.append("\" x=\"", to: &bytes)
        HTMLText.appendCoordinate(x(index(of: day)) + (slot - barWidth) / 2, to: &bytes)
        ByteText.append("\" y=\"", to: &bytes)
        HTMLText.appendCoordinate(y(high), to: &bytes)
        ByteText.append("\" width=\"", to: &bytes)
        HTMLText.appendCoordinate(barWidth, to: &bytes)
        ByteText.append("\" height=\"", to: &bytes)
        HTMLText.appendCoordinate(max(y(low) - y(high), 0.1), to: &bytes)
        ByteText.append("\"/>", to: &bytes)
    }

    func appendClosing(to bytes: inout [UInt8]) {
        ByteText.append("</svg>", to: &bytes)
    }

    /// Day labels along the bottom, as many as stay apart: days (`03-14`), Mondays, the first of
    /// each month (`2024-03`) or quarter, or of each year (`2024`).
    private func appendDayLabels(to bytes: inout [UInt8]) {
        for index in 0..<dayCount {
            let day = days.lowerBound.adding(days: Int64(index))
            let labelled: Bool =
                switch dayCount {
                case ...14: true
                case ...70: (day.daysSinceEpoch + 3) % 7 == 0  // 1970-01-05 was a Monday
                case ...400: day.day == 1
                case ...1100: day.day == 1 && (day.month - 1) % 3 == 0
                default: day.day == 1 && day.month == 1
                }
            guard labelled else { continue }
            ByteText.append("<text class=\"axis\" x=\"", to: &bytes)
            HTMLText.appendCoordinate(x(index) + slot / 2, to: &bytes)
            ByteText.append("\" y=\"\(Int(Self.height - 6))\" text-anchor=\"middle\">", to: &bytes)
            var text: [UInt8] = []
            TimeText.appendDay(day, to: &text)
            // YYYY-MM-DD: keep MM-DD, YYYY-MM or YYYY.
            let kept = dayCount <= 70 ? text[5...] : dayCount <= 1100 ? text[..<7] : text[..<4]
            bytes.append(contentsOf: kept)
            ByteText.append("</text>", to: &bytes)
        }
    }

    /// A round step (1, 2 or 5 × 10ⁿ) giving four or five grid lines over `span`.
    static func gridStep(for span: Double) -> Double {
        var magnitude = 1.0
        while magnitude * 10 <= span / 4 { magnitude *= 10 }
        while magnitude > span / 4 { magnitude /= 10 }
        for factor in [1.0, 2.0, 5.0, 10.0] where span / (magnitude * factor) <= 5 {
            return magnitude * factor
        }
        return magnitude * 10
    }
}
