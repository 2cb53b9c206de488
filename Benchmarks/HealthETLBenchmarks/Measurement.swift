import Foundation

/// Wall-clock timing and peak memory for the benchmark report.
enum Measurement {
    /// Runs `body` once and returns its result with the seconds it took.
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Peak resident set size of this process so far, in MiB (`VmHWM`).
    static var peakResidentMiB: Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib / 1024
    }

    static func rate(_ count: Int, _ seconds: Double) -> String {
        String(format: "%12.0f /s", Double(count) / seconds)
    }
}
