import Foundation
import HealthETLCore
import Testing

extension ProjectionTests {
    struct SourcePriorityTests {
        typealias F = ProjectionFixtures

        struct Case: Sendable, CustomStringConvertible {
            let source: String
            let device: String?
            let userEntered: Bool
            let expected: SourceClass
            var description: String { "\(source) / \(device ?? "-")" }
        }

        @Test(arguments: [
            Case(source: "Health", device: nil, userEntered: true, expected: .manual),
            // typed in on the watch is still typed in
            Case(source: "Anna’s Apple Watch", device: nil, userEntered: true, expected: .manual),
            Case(source: "Anna’s Apple Watch", device: nil, userEntered: false, expected: .watch),
            Case(source: "Apple Watch", device: nil, userEntered: false, expected: .watch),
            // the device string names the watch even when the source name does not
            Case(
                source: "Workout",
                device: "<<HKDevice: 0x283f1f890>, name:Apple Watch, manufacturer:Apple Inc., model:Watch>",
                userEntered: false, expected: .watch),
            Case(source: "Anna’s iPhone", device: nil, userEntered: false, expected: .phone),
            Case(source: "Pixel phone", device: nil, userEntered: false, expected: .phone),
            Case(
                source: "Pedometer++",
                device: "<<HKDevice: 0x2806a4e10>, name:iPhone, manufacturer:Apple Inc., model:iPhone>",
                userEntered: false, expected: .phone),
            Case(source: "Oura", device: nil, userEntered: false, expected: .other),
        ])
        func classifiesSources(_ c: Case) {
            let sample = F.sample(
                source: c.source, device: c.device, from: "2024-03-01 08:00", to: "2024-03-01 08:10",
                value: 1, userEntered: c.userEntered)
            #expect(SourcePriority.sourceClass(of: sample) == c.expected)
        }

        @Test func defaultOrderIsManualWatchPhoneOther() {
            let priority = SourcePriority()
            let ranks = [
                F.sample(source: F.ring, from: "2024-03-01 08:00", to: "2024-03-01 08:10", value: 1),
                F.sample(source: F.phone, from: "2024-03-01 08:00", to: "2024-03-01 08:10", value: 1),
                F.sample(source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 08:10", value: 1),
                F.sample(
                    source: "Health", from: "2024-03-01 08:00", to: "2024-03-01 08:10", value: 1,
                    userEntered: true),
            ].map(priority.rank(of:))
            #expect(ranks.sorted().map(\.sourceName) == ["Health", F.watch, F.phone, F.ring])
        }

        @Test func preferredNamesComeBeforeTheTiersInTheirOrder() {
            let priority = SourcePriority(preferred: ["Oura", "Withings"])
            let ranks = ["Withings", F.watch, "Oura"].map {
                priority.rank(
                    of: F.sample(source: $0, from: "2024-03-01 08:00", to: "2024-03-01 08:10", value: 1))
            }
            #expect(ranks.sorted().map(\.sourceName) == ["Oura", "Withings", F.watch])
        }

        @Test func sourcesOfOneTierAreOrderedByName() {
            let priority = SourcePriority()
            let b = priority.rank(
                of: F.sample(source: "B’s iPhone", from: "2024-03-01 08:00", to: "2024-03-01 08:10"))
            let a = priority.rank(
                of: F.sample(source: "A’s iPhone", from: "2024-03-01 08:00", to: "2024-03-01 08:10"))
            #expect(a < b)
            #expect(!(b < a))
        }

        @Test func roundTripsThroughJSON() throws {
            let priority = SourcePriority(preferred: ["Oura"])
            let data = try JSONEncoder().encode(priority)
            #expect(String(decoding: data, as: UTF8.self) == #"{"preferred":["Oura"]}"#)
            #expect(try JSONDecoder().decode(SourcePriority.self, from: data) == priority)
        }
    }
}
