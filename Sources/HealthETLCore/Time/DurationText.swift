/// Reads durations as people write them on a command line: `7d`, `36h`, `90m`, `45s`, `2w`.
public enum DurationText {
    /// Seconds, or `nil` if the text is not a positive whole number with one of the units.
    public static func seconds(_ text: String) -> Int64? {
        guard let unit = text.last, let number = Int64(text.dropLast()), number >= 0 else { return nil }
        let scale: Int64
        switch unit {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3600
        case "d": scale = 86_400
        case "w": scale = 604_800
        default: return nil
        }
        let (product, overflow) = number.multipliedReportingOverflow(by: scale)
        return overflow ? nil : product
    }
}
