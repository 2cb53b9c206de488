/// An entry's modification time in MS-DOS form (2-second resolution, no time zone), as both the
/// local header and the central directory record store it.
public struct ZipTimestamp: Sendable, Hashable {
    /// Bits 11-15 hour, 5-10 minute, 0-4 second / 2.
    public let dosTime: UInt16
    /// Bits 9-15 year - 1980, 5-8 month, 0-4 day.
    public let dosDate: UInt16

    /// Midnight on 1980-01-01, the earliest time MS-DOS dates hold.
    public static let dosEpoch = ZipTimestamp(dosTime: 0, dosDate: 1 << 5 | 1)

    /// - Precondition: a real wall-clock time between 1980 and 2107, the range MS-DOS dates hold.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        precondition((1980...2107).contains(year) && (1...12).contains(month) && (1...31).contains(day))
        precondition((0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second))
        dosTime = UInt16(hour << 11 | minute << 5 | second / 2)
        dosDate = UInt16((year - 1980) << 9 | month << 5 | day)
    }

    /// The two fields as a record holds them, unchecked: a reader takes whatever an archive says.
    public init(dosTime: UInt16, dosDate: UInt16) {
        self.dosTime = dosTime
        self.dosDate = dosDate
    }

    /// The fields as a wall-clock date and time, or `nil` for fields no real date gives (month 13,
    /// hour 25). The zone is whatever the writer's was: a ZIP records none.
    public var wallClock: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)? {
        let month = Int(dosDate >> 5 & 0xF)
        let day = Int(dosDate & 0x1F)
        let hour = Int(dosTime >> 11)
        let minute = Int(dosTime >> 5 & 0x3F)
        let second = Int(dosTime & 0x1F) * 2
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        return (Int(dosDate >> 9) + 1980, month, day, hour, minute, second)
    }
}
