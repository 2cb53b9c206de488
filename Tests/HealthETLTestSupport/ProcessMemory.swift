import Foundation

/// What a process holds in memory, as Linux counts it: a running process of the built binary,
/// or this test process itself.
public enum ProcessMemory {
    /// The process's peak resident set (`VmHWM` of `/proc/PID/status`) in bytes; `nil` once it
    /// has exited.
    public static func peakResidentBytes(of pid: Int32) -> Int? {
        peakResidentBytes(status: "/proc/\(pid)/status")
    }

    /// This process's peak resident set in bytes; `nil` where `/proc` cannot be read.
    public static func ownPeakResidentBytes() -> Int? {
        peakResidentBytes(status: "/proc/self/status")
    }

    /// Resets this process's peak to its current resident size where the kernel allows it, and
    /// returns the peak to measure growth from, in bytes.
    public static func startOwnPeakMeasurement() -> Int {
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            try? handle.write(contentsOf: Data("5".utf8))
            try? handle.close()
        }
        return ownPeakResidentBytes() ?? 0
    }

    private static func peakResidentBytes(status path: String) -> Int? {
        guard let status = try? String(contentsOfFile: path, encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        // `VmHWM:\t  123456 kB`
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count == 3, let kibibytes = Int(fields[1]) else { return nil }
        return kibibytes << 10
    }
}
