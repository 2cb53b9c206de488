/// A record that could not become a sample, kept whole with the reason.
public struct QuarantinedRecord: Hashable, Sendable {
    /// Identity of the raw record, so re-importing the same file does not quarantine it twice.
    public var id: ContentID
    public var reason: QuarantineReason
    /// What exactly was wrong, e.g. `unit "furlong" is not accepted for step_count`.
    public var detail: String
    public var raw: RawRecord

    public init(reason: QuarantineReason, detail: String, raw: RawRecord) {
        self.id = ContentID(
            metric: raw.type, source: raw.sourceName,
            start: Instant(millisecondsSinceEpoch: 0), end: Instant(millisecondsSinceEpoch: 0),
            value: raw.start.asWritten + "\u{1F}" + raw.end.asWritten + "\u{1F}"
                + (raw.value.asWritten ?? ""),
            unit: raw.unit)
        self.reason = reason
        self.detail = detail
        self.raw = raw
    }
}
