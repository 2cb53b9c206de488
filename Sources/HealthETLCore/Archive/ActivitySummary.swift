/// One day's activity rings as the export states them (`ActivitySummary`).
public struct ActivitySummary: Hashable, Sendable {
    /// The local day (`dateComponents`), which carries no time and no offset.
    public var day: CivilDate
    /// Every attribute as written (energy, goals, exercise and stand figures and their units).
    public var attributes: [MetadataEntry]

    public init(day: CivilDate, attributes: [MetadataEntry]) {
        self.day = day
        self.attributes = attributes
    }
}
