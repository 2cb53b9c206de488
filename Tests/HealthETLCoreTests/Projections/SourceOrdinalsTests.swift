import HealthETLTestSupport
import Testing

@testable import HealthETLCore

extension ProjectionTests {
    /// `SourceOrdinals` ranks a run of one source's samples once; the ordinals must be what ranking
    /// every sample on its own gives: the dense order of the distinct ranks.
    struct SourceOrdinalsTests {
        typealias F = ProjectionFixtures

        static func ordinalsRankingEverySample(_ samples: [Sample], by priority: SourcePriority) -> [Int] {
            let ranks = samples.map(priority.rank(of:))
            let distinct = Set(ranks).sorted()
            return ranks.map { rank in distinct.firstIndex(of: rank)! }
        }

        // "Café" twice: precomposed and with a combining accent, one name to Swift, two in bytes.
        static let sources = [F.watch, F.phone, "Caf\u{E9}", "Cafe\u{301}", "Oura", "Health"]
        static let devices: [String?] = [
            nil, "<<HKDevice: 0x1>, name:Apple Watch>", "<<HKDevice: 0x2>, name:iPhone>",
        ]
        static let priorities = [SourcePriority(), SourcePriority(preferred: ["Oura", "Caf\u{E9}"])]

        /// Mostly runs, sometimes a change of one of what ranks a sample.
        @Test(arguments: [1, 2, 3, 4] as [UInt64])
        func runsAreRankedAsEverySampleWouldBe(seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            var source = Self.sources[0]
            var device = Self.devices[0]
            var userEntered = false
            var samples: [Sample] = []
            for minute in 0..<400 {
                switch Int.random(in: 0..<10, using: &random) {
                case 0: source = Self.sources.randomElement(using: &random)!
                case 1: device = Self.devices.randomElement(using: &random)!
                case 2: userEntered.toggle()
                default: break
                }
                samples.append(Self.sample(source, device, userEntered, minute, &random))
            }
            Self.expectOrdinalsRankingEverySample(samples)
        }

        /// Sources interleaved sample by sample, as a day read by start time has them: a few of
        /// them, or more than `SourceOrdinals` compares a sample with before ranking it.
        @Test(arguments: [1, 2] as [UInt64], [2, 4, 36])
        func interleavedSourcesAreRankedAsEverySampleWouldBe(seed: UInt64, distinct: Int) {
            var random = SeededGenerator(seed: seed)
            let kinds = Self.sources.flatMap { source in
                Self.devices.flatMap { device in [false, true].map { (source, device, $0) } }
            }.shuffled(using: &random).prefix(distinct)
            let samples = (0..<600).map { minute in
                let (source, device, userEntered) = kinds.randomElement(using: &random)!
                return Self.sample(source, device, userEntered, minute, &random)
            }
            Self.expectOrdinalsRankingEverySample(samples)
        }

        static func sample(
            _ source: String, _ device: String?, _ userEntered: Bool, _ minute: Int, _ random: inout SeededGenerator
        ) -> Sample {
            var sample = F.sample(
                source: source, device: device, from: "2024-03-01 08:00", to: "2024-03-01 08:01",
                value: Double(minute), userEntered: userEntered)
            if Int.random(in: 0..<20, using: &random) == 0 { sample.flags.insert(.summarized) }
            return sample
        }

        static func expectOrdinalsRankingEverySample(_ samples: [Sample]) {
            for priority in priorities {
                let ordinals = SourceOrdinals(of: samples, by: priority)
                let expected = Self.ordinalsRankingEverySample(samples, by: priority)
                #expect(ordinals.ordinals == expected)
                #expect(ordinals.count == Set(expected).count)
            }
        }
    }
}
