import Foundation
import HealthETLCore
import HealthETLPipeline

/// Shows an import's progress on standard error (`StatusLine`): bytes, a bar and an ETA when
/// the size is known, records and records/s.
final class ProgressReporter {
    private let label: String
    private let status = StatusLine()

    init(label: String) {
        self.label = label
    }

    func report(_ progress: ImportProgress) {
        let rate = Double(progress.recordsRead) / max(progress.elapsedSeconds, 0.001)
        let amount: (Int64) -> String
        switch progress.positions {
        case .bytes: amount = Self.bytes
        case .rows: amount = Self.rows
        case .files: amount = Self.files
        }
        var line = "\(label): \(amount(progress.position))"
        if let end = progress.endPosition, end > 0 {
            let fraction = min(1, Double(progress.position) / Double(end))
            let remaining = fraction > 0 ? progress.elapsedSeconds * (1 - fraction) / fraction : 0
            line =
                "\(label) \(Self.bar(fraction)) \(Int(fraction * 100))% \(amount(progress.position))/\(amount(end))"
                + " ETA \(Self.clock(remaining))"
        }
        line += String(format: "  %d records  %.0f rec/s", progress.recordsRead, rate)
        status.show(line, elapsed: progress.elapsedSeconds)
    }

    func finish() { status.finish() }

    static func bar(_ fraction: Double) -> String {
        let width = 24
        let filled = Int(fraction * Double(width))
        return "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled) + "]"
    }

    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        if value >= 1_073_741_824 { return String(format: "%.2f GB", value / 1_073_741_824) }
        if value >= 1_048_576 { return String(format: "%.1f MB", value / 1_048_576) }
        return String(format: "%.0f KB", value / 1024)
    }

    /// A `.files` position: the files read so far.
    static func files(_ position: Int64) -> String {
        "\(position >> PositionKind.fileShift) files"
    }

    static func rows(_ count: Int64) -> String {
        if count >= 1_000_000 { return String(format: "%.1fM rows", Double(count) / 1_000_000) }
        if count >= 10_000 { return "\(count / 1000)k rows" }
        return "\(count) rows"
    }

    static func clock(_ seconds: Double) -> String {
        // An estimate from a sliver of a huge line (a database's row ids near 2^63) can pass any clock.
        guard seconds.isFinite, seconds >= 0, seconds < 360_000 else { return "--:--" }
        let whole = Int(seconds.rounded())
        return String(format: "%d:%02d", whole / 60, whole % 60)
    }
}
