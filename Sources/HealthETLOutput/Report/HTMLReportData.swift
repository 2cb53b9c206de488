import HealthETLCore

/// Everything the HTML report shows, gathered from the store with the projections' own code.
public struct HTMLReportData: Sendable {
    /// One metric's daily figures as a chart draws them.
    public struct Series: Sendable {
        public var metric: String
        public var title: String
        /// The unit the values are in, as a person reads it (`bpm`, `ms`, `kg`).
        public var unit: String
        public var rollups: [DailyRollup]

        public init(metric: String, title: String, unit: String, rollups: [DailyRollup]) {
            self.metric = metric
            self.title = title
            self.unit = unit
            self.rollups = rollups
        }

        /// The value charted for a day: the sum for cumulative metrics, else the average (the
        /// figure `projections` shows).
        public static func value(of rollup: DailyRollup) -> Double? { rollup.sum ?? rollup.average }
    }

    public var days: ClosedRange<CivilDate>
    public var generatedAt: Instant
    public var steps: Series
    public var restingHeartRate: Series
    public var heartRateVariability: Series
    public var weight: Series
    public var sleep: [SleepNight]
    public var workouts: [WorkoutListing]
    public var coverage: [SourceDayCount]
    /// Records kept aside by reason, over every import into the store.
    public var quarantine: [String: Int]
    /// Samples in the range a flag asks to review, by flag.
    public var flagged: [String: Int]
    /// The range's insights (`InsightCalculator`): what was above or below the usual.
    public var insights: [Insight]

    public init(
        days: ClosedRange<CivilDate>, generatedAt: Instant, steps: Series, restingHeartRate: Series,
        heartRateVariability: Series, weight: Series, sleep: [SleepNight], workouts: [WorkoutListing],
        coverage: [SourceDayCount], quarantine: [String: Int], flagged: [String: Int], insights: [Insight] = []
    ) {
        self.insights = insights
        self.days = days
        self.generatedAt = generatedAt
        self.steps = steps
        self.restingHeartRate = restingHeartRate
        self.heartRateVariability = heartRateVariability
        self.weight = weight
        self.sleep = sleep
        self.workouts = workouts
        self.coverage = coverage
        self.quarantine = quarantine
        self.flagged = flagged
    }
}
