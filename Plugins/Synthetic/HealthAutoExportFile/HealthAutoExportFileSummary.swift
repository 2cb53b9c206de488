/// What a generated Health Auto Export file holds, counted as the reader counts: every point,
/// workout and section item, so a test can check an import against it.
public struct HealthAutoExportFileSummary: Sendable, Equatable, Encodable {
    /// Points of each metric, by HAE name.
    public var points: [String: Int] = [:]
    public var workouts = 0
    /// Points of the workouts' heart-rate series.
    public var workoutHeartRatePoints = 0
    /// Items of the other sections, by section.
    public var sectionItems: [String: Int] = [:]
    public var bytes: Int64 = 0

    /// The records an import reads, as the generator wrote them: each point (a sleep night's
    /// totals are two, in bed and asleep; a blood-pressure reading its two components), each
    /// workout's sample and heart-rate points, each section item. Blood-pressure panels are
    /// counted apart, as `import` counts them.
    public var records = 0
}
