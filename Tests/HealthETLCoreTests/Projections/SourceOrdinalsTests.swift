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

        @Test(arguments: [1, 2, 3, 4] as [UInt64])
        func runsAreRankedAsEverySampleWouldBe(seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            // "Café" twice: precomposed and with a combining accent, one name to Swift, two in bytes.
            let sources = [F.watch, F.phone, "Caf\u{E9}", "Cafe\u{301}", "Oura", "Health"]
            let devices: [String?] = [nil, "<<HKDevice: 0x1>, name:Apple Watch>", "<<HKDevice: 0x2>, name:iPhone>"]
            let priorities = [SourcePriority(), SourcePriority(preferred: ["Oura", "Caf\u{E9}"])]
            var samples: [Sample] = []
            var source = sources[0]
            var device = devices[0]
            var userEntered = false
            for minute in 0..<400 {
                // Mostly runs, sometimes a change of one of what ranks a sample.
                switch Int.random(in: 0..<10, using: &random) {
                case 0: source = sources.randomElement(using: &random)!
                case 1: device = devices.randomElement(using: &random)!
                case 2: userEntered.toggle()
                default: break
                }
                var sample = F.sample(
                    source: source, device: device, from: "2024-03-01 08:00", to: "2024-03-01 08:01",
                    value: Double(minute), userEntered: userEntered)
                if Int.random(in: 0..<20, using: &random) == 0 { sample.flags.insert(.summarized) }
                samples.append(sample)
            }
            for priority in priorities {
                let ordinals = SourceOrdinals(of: samples, by: priority)
                let expected = Self.ordinalsRankingEverySample(samples, by: priority)
                #expect(ordinals.ordinals == expected)
                #expect(ordinals.count == Set(expected).count)
            }
        }
    }
}
