import Foundation
import HealthETLCore
import Testing

extension ProjectionTests {
    /// One workout two sources recorded is listed and counted once, as the better-ranked source's;
    /// the steps of the same walk synced from a watch into a phone app add up once.
    struct WorkoutMatcherTests {
        typealias F = ProjectionFixtures
        static let garmin = "Garmin fenix5"
        static let connect = "Connect"
        static let matcher = WorkoutMatcher(priority: SourcePriority(), catalog: try! MetricCatalog.bundled())

        static func listing(
            _ activity: String, source: String, device: String? = nil, from start: Int64, to end: Int64
        ) -> WorkoutListing {
            WorkoutListing(
                activityType: activity, sourceName: source, device: device,
                start: Instant(secondsSinceEpoch: 1_780_000_000 + start),
                end: Instant(secondsSinceEpoch: 1_780_000_000 + end), utcOffsetSeconds: nil, durationSeconds: nil)
        }

        static let watchRun = listing(
            "running/generic", source: garmin, device: "Garmin fenix5 (watch)", from: 0, to: 3_600)

        @Test func theSameRunFromAWatchAndFromAppleHealthIsListedOnceAsTheWatchs() {
            let synced = Self.listing("HKWorkoutActivityTypeRunning", source: Self.connect, from: 60, to: 3_640)
            let result = Self.matcher.preferred([synced, Self.watchRun])
            #expect(result.listings == [Self.watchRun])
            #expect(result.matched == 1)
        }

        /// 80 % of the shorter workout is the line: 2,400 of 3,000 s matches, 2,399 does not.
        @Test func theyMatchFromEightyPercentOfTheShorterOverlap() {
            let enough = Self.listing("HKWorkoutActivityTypeRunning", source: Self.connect, from: 1_200, to: 4_200)
            let short = Self.listing("HKWorkoutActivityTypeRunning", source: Self.connect, from: 1_201, to: 4_201)
            #expect(Self.matcher.isSameWorkout(Self.watchRun, enough))
            #expect(!Self.matcher.isSameWorkout(Self.watchRun, short))
        }

        @Test func differentActivitiesOrOneSourceAreNeverOneWorkout() {
            let ride = Self.listing("HKWorkoutActivityTypeCycling", source: Self.connect, from: 0, to: 3_600)
            #expect(!Self.matcher.isSameWorkout(Self.watchRun, ride))
            let unknown = Self.listing("Morning Run", source: Self.connect, from: 0, to: 3_600)
            #expect(Self.matcher.isSameWorkout(Self.watchRun, unknown), "an activity nobody can name agrees")
            let again = Self.listing("running/trail", source: Self.garmin, from: 0, to: 3_600)
            #expect(!Self.matcher.isSameWorkout(Self.watchRun, again))
            #expect(Self.matcher.preferred([Self.watchRun, ride]).listings.count == 2)
        }

        /// A preferred source outranks the watch.
        @Test func theConfiguredPriorityPicksTheOneListed() {
            let synced = Self.listing("running", source: Self.connect, from: 0, to: 3_600)
            let matcher = WorkoutMatcher(
                priority: SourcePriority(preferred: [Self.connect]), catalog: try! MetricCatalog.bundled())
            #expect(matcher.preferred([Self.watchRun, synced]).listings == [synced])
        }

        /// A watch's steps and the same steps the vendor's app wrote into Apple Health cover the
        /// same minutes: the day sums them once, as the watch's.
        @Test func aWatchsStepsSyncedIntoAPhoneAppSumOnce() {
            let minute = { (minute: Int) in
                minute == 60 ? "2024-03-01 09:00" : String(format: "2024-03-01 08:%02d", minute)
            }
            let watch = (0..<60).map {
                F.sample(
                    source: Self.garmin, device: "Garmin fenix5 (watch)", from: minute($0), to: minute($0 + 1),
                    value: 100)
            }
            let synced = F.sample(source: Self.connect, from: "2024-03-01 08:00", to: "2024-03-01 09:00", value: 6_000)
            let rollups = DailyRollupCalculator(metric: F.steps).rollups(for: watch + [synced])
            #expect(rollups.count == 1)
            #expect(rollups.first?.sum == 6_000)
        }
    }
}
