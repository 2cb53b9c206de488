import HealthETLCore
import HealthETLZip

/// Writes a Garmin watch's FIT files over `days` local days, laid out as its `GARMIN/` folder:
/// a run or ride every other day (`Activity/`), a monitoring file per day (`Monitor/`), a sleep
/// file per night (`Sleep/`), the scale's weigh-ins for several people on the mornings anyone
/// weighed, and on the last day one file of two chained blood pressure FIT files (`Weight/`).
/// Deterministic for a seed and a clock.
///
/// No `.fit.gz`: the Synthetic target does not link zlib itself, so every file is plain FIT.
public struct FITExportGenerator {
    public let options: FITExportOptions
    private let clock: Clock

    public init(options: FITExportOptions, clock: Clock = .system) {
        self.options = options
        self.clock = clock
    }

    public func run() throws -> FITExportSummary {
        guard options.days >= 1 else {
            throw GeneratorError("a FIT export needs at least one day, not \(options.days)")
        }
        guard (1...8).contains(options.people) else {
            throw GeneratorError("the scale keeps 1 to 8 people, not \(options.people)")
        }
        let offset = Int64(options.utcOffsetSeconds)
        let localNow = clock.now().millisecondsSinceEpoch.floorDivided(by: 1000).quotient + offset
        let today = Int(localNow.floorDivided(by: 86_400).quotient)
        let days = (today - options.days)..<today
        let output = try FITExportOutput(path: options.path, modified: Self.zipTimestamp(localNow))
        var summary = FITExportSummary()
        summary.path = options.path
        summary.firstDay = FITTime.dayText(days.lowerBound)
        summary.lastDay = FITTime.dayText(days.upperBound - 1)
        summary.days = options.days

        let seed = options.seed
        let watch = FITDevice.watch(seed: seed)
        let activities = FITActivityPlan.plans(days: days, seed: seed, utcOffsetSeconds: options.utcOffsetSeconds)
        for plan in activities {
            let file = FITActivityFile(plan: plan, watch: watch, utcOffsetSeconds: options.utcOffsetSeconds).encode()
            try write(file, name: FITTime.fileStamp(plan.start + offset), day: "", to: output, into: &summary)
        }
        for day in days {
            let file = FITMonitoringDay(
                day: day, utcOffsetSeconds: options.utcOffsetSeconds, watch: watch, activities: activities, seed: seed
            ).encode()
            try write(file, name: FITTime.dayText(day), day: FITTime.dayText(day), to: output, into: &summary)
        }
        for day in days {
            let file = FITSleepNight(day: day, utcOffsetSeconds: options.utcOffsetSeconds, watch: watch, seed: seed)
                .encode()
            try write(file, name: FITTime.dayText(day), day: FITTime.dayText(day), to: output, into: &summary)
        }
        let scale = FITDevice.scale(seed: seed)
        let people = (0..<options.people).map { FITScalePerson(index: $0, seed: seed) }
        for day in days {
            let weighIns = FITWeighIns(
                day: day, dayIndex: day - days.lowerBound, utcOffsetSeconds: options.utcOffsetSeconds, scale: scale,
                people: people, seed: seed)
            guard let file = weighIns.encode() else { continue }
            try write(file, name: FITTime.dayText(day), day: FITTime.dayText(day), to: output, into: &summary)
        }
        let lastDay = days.upperBound - 1
        let pressure = FITBloodPressureDay(
            day: lastDay, utcOffsetSeconds: options.utcOffsetSeconds,
            monitor: FITDevice.bloodPressureMonitor(seed: seed), seed: seed
        ).encode()
        try write(
            pressure, name: "blood-pressure-" + FITTime.dayText(lastDay), day: FITTime.dayText(lastDay), to: output,
            into: &summary)

        summary.bytes = try output.finish()
        return summary
    }

    private func write(
        _ file: FITEncodedFile, name: String, day: String, to output: FITExportOutput,
        into summary: inout FITExportSummary
    ) throws {
        var written = file.written
        written.path = written.kind.folder + "/" + name + ".fit"
        try output.write(written.path, file.bytes)
        summary.add(written, day: day)
    }

    /// The zip's entries carry the watch's wall clock at the time of the copy.
    private static func zipTimestamp(_ localSeconds: Int64) -> ZipTimestamp {
        let day = Int(localSeconds.floorDivided(by: 86_400).quotient)
        let second = Int(localSeconds - Int64(day) * 86_400)
        let date = CivilTime.date(days: day)
        return ZipTimestamp(
            year: date.year, month: date.month, day: date.day, hour: second / 3600, minute: second / 60 % 60,
            second: second % 60)
    }
}
