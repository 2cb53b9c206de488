/// A projection scope's rows as the sink answered them.
public enum ProjectionData: Sendable, Equatable {
    case daily([DailyRollup])
    case sleep([SleepNight])
    case insights([InsightDay])
}
