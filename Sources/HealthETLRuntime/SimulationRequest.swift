import HealthETLCore
import Synthetic

/// What `simulate` was asked for. An option left `nil` was not given: a stream that exists keeps
/// what it was created with, and only options given with other values conflict.
public struct SimulationRequest: Sendable {
    public var seed: UInt64 = 1
    public var people = 1
    /// Keep running on a simulated clock instead of loading finished history.
    public var follow = false
    /// With `follow`: simulated seconds per real second.
    public var speed: Double?
    /// The simulated now a new stream starts from.
    public var origin: Instant?
    /// With `follow`: stop when the simulated clock reaches this instant.
    public var until: Instant?
    public var historyDays: Int?
    public var hotWindowSeconds: Int64?
    public var changesPerDay: Int?
    public var samplesPerDay: Int?
    public var duplicates: Double?
    public var outOfRange: Double?
    public var unknownTypes: Double?
    public var late: Double?
    public var batchSize = 5_000

    /// The records a simulated day may hold.
    public static let samplesPerDayRange = SampleDensity.supported

    public init() {}

    var givesFaultRates: Bool { [duplicates, outOfRange, unknownTypes, late].contains { $0 != nil } }

    /// The settings a new stream for `person` gets; `now` decides the default origin.
    func settings(for person: Int, now: Instant) -> SyntheticSettings {
        let defaultOrigin = follow ? now.truncatedToSecond : now.startOfUTCDay
        return SyntheticSettings(
            seed: seed, person: person, origin: origin ?? defaultOrigin, historyDays: historyDays ?? 30,
            hotWindowSeconds: hotWindowSeconds ?? 7 * 86_400, changesPerDay: changesPerDay ?? 4,
            samplesPerDay: samplesPerDay,
            faults: FaultRates(
                duplicate: duplicates ?? 0, outOfRange: outOfRange ?? 0, unknownType: unknownTypes ?? 0,
                late: late ?? 0))
    }

    /// The options given now that disagree with a stream's stored settings, as the user would
    /// write them to agree.
    func conflicts(with stored: SyntheticSettings, requested: SyntheticSettings) -> [String] {
        [
            origin != nil && stored.originMilliseconds != requested.originMilliseconds ? "--origin" : nil,
            historyDays != nil && stored.historyDays != requested.historyDays ? "--days \(stored.historyDays)" : nil,
            hotWindowSeconds != nil && stored.hotWindowSeconds != requested.hotWindowSeconds
                ? "--hot-window \(stored.hotWindowSeconds)s" : nil,
            changesPerDay != nil && stored.changesPerDay != requested.changesPerDay
                ? "--changes-per-day \(stored.changesPerDay)" : nil,
            samplesPerDay != nil && stored.samplesPerDay != requested.samplesPerDay
                ? stored.samplesPerDay.map { "--samples-per-day \($0)" } ?? "the natural samples per day" : nil,
            givesFaultRates && stored.faults != requested.faults ? "the same fault rates" : nil,
        ].compactMap { $0 }
    }
}
