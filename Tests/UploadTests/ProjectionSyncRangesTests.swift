import HealthETLCore
import Testing

@testable import HealthETLPipeline

/// The day ranges the projection sync asks the sink for: one request per range.
@Suite struct ProjectionSyncRangesTests {
    static func day(_ offset: Int64) -> CivilDate { CivilDate(daysSinceEpoch: 20_000 + offset) }

    @Test func weeklyDaysAreOneRangeWidenedByADayOnEachSide() {
        let weekly = (0..<26).map { Self.day($0 * 7) }
        #expect(ProjectionSync.ranges(of: weekly.shuffled()) == [Self.day(-1)...Self.day(25 * 7 + 1)])
    }

    @Test func daysFartherApartThanTheBridgeAreSeparateRanges() {
        let gap = ProjectionSync.bridgedDays + 4
        let ranges = ProjectionSync.ranges(of: [Self.day(0), Self.day(gap), Self.day(gap + 1)])
        #expect(ranges == [Self.day(-1)...Self.day(1), Self.day(gap - 1)...Self.day(gap + 2)])
        // One day closer and the clean days between are bridged.
        #expect(ProjectionSync.ranges(of: [Self.day(0), Self.day(gap - 1)]) == [Self.day(-1)...Self.day(gap)])
    }

    @Test func aRangeStopsShortOfTenYears() {
        let days = (0..<400).map { Self.day($0 * 30) }
        let ranges = ProjectionSync.ranges(of: days)
        #expect(ranges.count == 4)
        #expect(ranges.allSatisfy { $0.upperBound.daysSinceEpoch - $0.lowerBound.daysSinceEpoch < 3_650 })
        #expect(Set(days).allSatisfy { day in ranges.contains { $0.contains(day) } })
    }
}
