import HealthETLCore
import Synthetic

/// `simulate --export apple-health PATH`: the generator's export, as a zip (streamed straight into
/// the archive) or, when PATH does not end in `.zip`, a bare export.xml.
public enum SyntheticExport {
    public static func writeAppleHealth(
        to path: String, records: Int, seed: UInt64, samplesPerDay: Int?, everyType: MetricCatalog? = nil,
        clock: Clock = .system
    ) throws -> AppleExportSummary {
        let zip = path.hasSuffix(".zip")
        let options = AppleExportOptions(
            records: records, seed: seed, out: zip ? nil : path, zipPath: zip ? path : nil,
            samplesPerDay: samplesPerDay, everyType: everyType)
        return try AppleExportGenerator(options: options, clock: clock).run()
    }

    /// `simulate --export health-connect PATH [--previous OLD]`: a phone's Health Connect export
    /// zip, or the next one after `previous`.
    public static func writeHealthConnect(
        to path: String, days: Int, seed: UInt64, heartRateInterval: Int, previous: String?, clock: Clock = .system
    ) throws -> HealthConnectExportSummary {
        let options = HealthConnectExportOptions(
            zipPath: path, days: days, seed: seed, heartRateInterval: heartRateInterval, previous: previous)
        return try HealthConnectExportGenerator(options: options, clock: clock).run()
    }

    /// `simulate --export health-auto-export FILE.json`: a Health Auto Export JSON file.
    /// `styles`: `summarized`, `twelve-hour`, `v1`, `no-envelope` (see `HealthAutoExportFileOptions`).
    public static func writeHealthAutoExport(
        to path: String, days: Int, seed: UInt64, heartRateInterval: Int, styles: Set<String>, clock: Clock = .system
    ) throws -> HealthAutoExportFileSummary {
        let options = HealthAutoExportFileOptions(
            path: path, days: days, seed: seed, format: styles.contains("v1") ? 1 : 2,
            summarized: styles.contains("summarized"), twelveHour: styles.contains("twelve-hour"),
            envelope: !styles.contains("no-envelope"), heartRateInterval: heartRateInterval)
        return try HealthAutoExportFileGenerator(options: options, clock: clock).run()
    }
}
