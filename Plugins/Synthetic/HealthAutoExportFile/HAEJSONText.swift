import HealthETLCore
import HealthETLZip

/// The generator's output: JSON text built in a buffer and written to a private file a megabyte
/// at a time, with HAE's date spellings.
final class HAEJSONText {
    private let file: PrivateFile
    private var buffer: [UInt8] = []
    private(set) var bytes: Int64 = 0
    private let twelveHour: Bool
    private let offset: String
    /// A write that failed mid-way, said by `finish`.
    private var failure: (any Error)?

    init(path: String, twelveHour: Bool, utcOffsetSeconds: Int) throws {
        file = try PrivateFile(path: path, fresh: false)
        self.twelveHour = twelveHour
        let magnitude = abs(utcOffsetSeconds)
        offset =
            (utcOffsetSeconds < 0 ? "-" : "+") + Self.twoDigits(magnitude / 3600)
            + Self.twoDigits(magnitude % 3600 / 60)
        buffer.reserveCapacity(1 << 20)
    }

    func raw(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20, failure == nil {
            do { try flushBuffer() } catch { failure = error }
        }
    }

    /// `"key":` then the value text as given.
    func member(_ key: String, _ value: String) {
        raw("\"\(key)\":\(value)")
    }

    /// A local wall-clock time (seconds since the epoch, as if the zone were UTC) in HAE's spelling.
    func date(_ local: Int64) -> String {
        let (days, second) = local.floorDivided(by: 86_400)
        let day = CivilDate(daysSinceEpoch: days)
        let hour = Int(second / 3600)
        let clock: String
        if twelveHour {
            let twelve = hour % 12 == 0 ? 12 : hour % 12
            clock =
                "\(twelve):\(Self.twoDigits(Int(second % 3600 / 60))):\(Self.twoDigits(Int(second % 60)))\u{202F}\(hour < 12 ? "AM" : "PM")"
        } else {
            clock =
                "\(Self.twoDigits(hour)):\(Self.twoDigits(Int(second % 3600 / 60))):\(Self.twoDigits(Int(second % 60)))"
        }
        return "\"\(day) \(clock) \(offset)\""
    }

    func finish() throws {
        if let failure { throw failure }
        try flushBuffer()
        try file.close()
    }

    private func flushBuffer() throws {
        try buffer.withUnsafeBytes { try file.write($0) }
        bytes += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
