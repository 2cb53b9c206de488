import HealthETLCore

/// One way of writing the daily figures out: rollups (one metric, one local day) and sleep nights.
public protocol DailyFormat {
    func begin(into bytes: inout [UInt8])
    mutating func append(_ rollup: DailyRollup, into bytes: inout [UInt8])
    mutating func append(_ night: SleepNight, into bytes: inout [UInt8])
}
