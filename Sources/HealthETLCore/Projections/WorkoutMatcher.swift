/// Recognises one workout that two sources recorded (a Garmin run that the vendor's app also
/// synced into Apple Health or Health Connect): both stay stored, and where workouts are listed
/// or counted only the best-ranked source's counts.
///
/// Two workouts are the same when their sources differ, their intervals overlap by at least
/// `minimumOverlap` of the shorter one, and their activities agree (the same catalog value, or
/// one of them unknown or `other`). Daily sums need none of this: the projections already take
/// one source per slice of time.
public struct WorkoutMatcher: Sendable {
    public static let minimumOverlap = 0.8

    private let priority: SourcePriority
    /// Activity types as written → the catalog's activity values.
    private let activities: [String: String]

    public init(priority: SourcePriority, catalog: MetricCatalog) {
        self.priority = priority
        activities = catalog.metric(named: "workout")?.categoryValues ?? [:]
    }

    /// The catalog's value for an activity as written (`HKWorkoutActivityTypeRunning`, or a FIT
    /// `running/trail`), `nil` when unknown.
    func activity(_ written: String) -> String? {
        if let value = activities[written] { return value }
        guard let slash = written.firstIndex(of: "/") else { return nil }
        return activities[String(written[..<slash])]
    }

    public func isSameWorkout(_ a: WorkoutListing, _ b: WorkoutListing) -> Bool {
        guard a.sourceName != b.sourceName else { return false }
        let overlap = min(a.end, b.end).millisecondsSinceEpoch - max(a.start, b.start).millisecondsSinceEpoch
        let shorter = min(
            a.end.millisecondsSinceEpoch - a.start.millisecondsSinceEpoch,
            b.end.millisecondsSinceEpoch - b.start.millisecondsSinceEpoch)
        guard overlap >= 0, Double(overlap) >= Self.minimumOverlap * Double(max(shorter, 0)) else { return false }
        let (first, second) = (activity(a.activityType), activity(b.activityType))
        let vague: Set<String?> = [nil, "other", "unknown"]
        return first == second || vague.contains(first) || vague.contains(second)
    }

    /// The listings (oldest first) with each workout that a better-ranked source also recorded
    /// left out, and how many were.
    public func preferred(_ listings: [WorkoutListing]) -> (listings: [WorkoutListing], matched: Int) {
        let sorted = listings.sorted { ($0.start, $0.sourceName) < ($1.start, $1.sourceName) }
        let ranks = sorted.map { priority.rank(sourceName: $0.sourceName, device: $0.device) }
        var dropped = Set<Int>()
        for index in sorted.indices {
            for other in sorted.indices[(index + 1)...] {
                guard sorted[other].start < sorted[index].end else { break }
                guard isSameWorkout(sorted[index], sorted[other]) else { continue }
                dropped.insert(ranks[index] < ranks[other] ? other : index)
            }
        }
        return (sorted.indices.filter { !dropped.contains($0) }.map { sorted[$0] }, dropped.count)
    }
}
