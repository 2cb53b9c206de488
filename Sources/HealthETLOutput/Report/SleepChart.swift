import HealthETLCore

/// Sleep nights as bars of hours, stacked by stage (deep, core, REM, asleep without a stage, then
/// awake on top). Each night is a `<g>` with its night and asleep seconds as data attributes.
struct SleepChart {
    let nights: [SleepNight]
    let days: ClosedRange<CivilDate>

    /// The stages bottom up, with their style class and label.
    static let stages: [(name: String, label: String)] = [
        ("deep", "Deep"), ("core", "Core"), ("rem", "REM"), ("asleep", "Asleep (no stage)"), ("awake", "Awake"),
    ]

    static func hours(of night: SleepNight) -> [Double] {
        let staged = night.deepSeconds + night.coreSeconds + night.remSeconds
        return [
            night.deepSeconds, night.coreSeconds, night.remSeconds, max(night.asleepSeconds - staged, 0),
            night.awakeSeconds,
        ].map { $0 / 3600 }
    }

    func append(to bytes: inout [UInt8]) {
        let high = nights.map { Self.hours(of: $0).reduce(0, +) }.max() ?? 8
        let frame = ChartFrame(days: days, low: 0, high: max(high, 1))
        frame.appendOpening(label: "Sleep per night", unit: "hours", to: &bytes)
        for night in nights {
            ByteText.append("<g data-night=\"", to: &bytes)
            TimeText.appendDay(night.night, to: &bytes)
            ByteText.append("\" data-asleep=\"", to: &bytes)
            ByteText.append(night.asleepSeconds, to: &bytes)
            ByteText.append("\"><title>", to: &bytes)
            TimeText.appendDay(night.night, to: &bytes)
            HTMLText.append(escaping: ": asleep \(HTMLText.hours(night.asleepSeconds)) (\(night.source))", to: &bytes)
            let hours = Self.hours(of: night)
            for (stage, value) in zip(Self.stages, hours) where value > 0 {
                HTMLText.append(escaping: "\n\(stage.label): \(HTMLText.hours(value * 3600))", to: &bytes)
            }
            ByteText.append("</title>", to: &bytes)
            var base = 0.0
            for (stage, value) in zip(Self.stages, hours) where value > 0 {
                frame.appendSegment(
                    styleClass: stage.name, on: night.night, from: base, to: base + value, to: &bytes)
                base += value
            }
            ByteText.append("</g>", to: &bytes)
        }
        frame.appendClosing(to: &bytes)
    }
}
