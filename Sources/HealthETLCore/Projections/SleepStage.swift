/// The canonical values of the `sleep_analysis` category (the catalog's `sleep_stage` set).
public enum SleepStage: String, Hashable, Sendable, CaseIterable {
    case inBed = "in_bed"
    /// Asleep without a stage: what older watches, phones and most apps write.
    case asleepUnspecified = "asleep_unspecified"
    case asleepCore = "asleep_core"
    case asleepDeep = "asleep_deep"
    case asleepREM = "asleep_rem"
    case awake
    case outOfBed = "out_of_bed"
    case unknown

    /// The stages a sleep tracker writes when it can tell them apart.
    public static let staged: Set<SleepStage> = [.asleepCore, .asleepDeep, .asleepREM]
    /// Every kind of asleep, staged or not.
    public static let asleep: Set<SleepStage> = staged.union([.asleepUnspecified])
}
