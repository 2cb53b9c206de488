import Foundation

/// What a running process of the built binary holds in memory, as Linux counts it.
public enum ProcessMemory {
    /// The process's peak resident set (`VmHWM` of `/proc/PID/status`) in bytes; `nil` once it
    /// has exited.
    public static func peakResidentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        // `VmHWM:\t  123456 kB`
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count == 3, let kibibytes = Int(fields[1]) else { return nil }
        return kibibytes << 10
    }
}
