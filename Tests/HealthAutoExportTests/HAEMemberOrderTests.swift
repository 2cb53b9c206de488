import HealthETLCore
import Testing

@testable import HealthAutoExport

/// HAE writes a metric's `name`, `units` and `data` in any order (its own files show every one):
/// each shape of point, in each order, with other members and whitespace between, reads into
/// the same records as the order that names everything first, and none is quarantined for a unit
/// it had. A real v2 file lost every point of 5 of its 28 metrics to `units` after `data`.
@Suite struct HAEMemberOrderTests {
    typealias P = HAEPointReaderTests

    struct Shape: Sendable, CustomStringConvertible {
        let name: String
        let units: String
        let points: String
        var description: String { name }
    }

    static let shapes = [
        Shape(
            name: "step_count", units: "count",
            points: #"{"qty": 120, "date": "2024-02-06 14:00:00 -0800", "source": "Watch"}, "#
                + #"{"qty": 80, "start": "2024-02-06 15:00:00 -0800", "end": "2024-02-06 15:10:00 -0800"}"#),
        Shape(
            name: "heart_rate", units: "count/min",
            points: #"{"Min": 55, "Avg": 61.5, "Max": 70, "date": "2024-02-06 14:30:00 -0800"}"#),
        Shape(
            name: "blood_pressure", units: "mmHg",
            points: #"{"systolic": 121, "diastolic": 79, "date": "2024-02-06 08:00:00 -0800"}"#),
        Shape(
            name: "blood_glucose", units: "mg/dL",
            points: #"{"qty": 98, "date": "2024-02-06 08:00:00 -0800", "mealTime": "Before Meal"}"#),
        Shape(
            name: "sleep_analysis", units: "hr",
            points: #"{"startDate": "2024-02-06 01:00:00 -0800", "endDate": "2024-02-06 02:00:00 -0800", "#
                + #""value": "Core", "qty": 1}"#),
        Shape(
            name: "sleep_analysis", units: "hr",
            points: #"{"date": "2024-02-06 00:00:00 -0800", "asleep": 7.1, "inBed": 7.9, "#
                + #""sleepStart": "2024-02-05 23:10:00 -0800", "sleepEnd": "2024-02-06 06:40:00 -0800", "#
                + #""inBedStart": "2024-02-05 22:50:00 -0800", "inBedEnd": "2024-02-06 06:45:00 -0800"}"#),
        Shape(
            name: "apple_stand_hour", units: "count",
            points: #"{"qty": 7, "date": "2024-02-06 00:00:00 -0800", "source": "Watch"}"#),
        Shape(
            name: "body_temperature", units: "degF",
            points: #"{"qty": 98.4, "date": "2024-02-06 07:00:00 -0800"}"#),
    ]

    /// Every order of the three members, with an unknown member and odd whitespace among them.
    static let orders: [[String]] = [
        ["name", "units", "data"], ["name", "data", "units"], ["units", "name", "data"],
        ["units", "data", "name"], ["data", "name", "units"], ["data", "units", "name"],
    ]

    static func body(_ shape: Shape, order: [String]) -> String {
        let members = order.map { key -> String in
            switch key {
            case "name": "\"name\" :\n \"\(shape.name)\""
            case "units": "\t\"units\": \"\(shape.units)\""
            default: "\"data\": [\(shape.points)]"
            }
        }
        let withExtra = members + ["\"meta\": {\"units\": \"ignored\", \"data\": [1]}"]
        return "{\"data\": {\"metrics\": [{\(withExtra.joined(separator: " ,\r\n"))}]}}"
    }

    @Test(arguments: shapes)
    func everyMemberOrderReadsTheSameRecords(_ shape: Shape) throws {
        let expected = try P.records(Self.body(shape, order: Self.orders[0]))
        #expect(!expected.isEmpty)
        for record in expected {
            guard case .quarantined(let refused) = P.normalizer.normalize(record) else { continue }
            Issue.record("\(shape.name) in name-first order quarantined: \(refused.reason) \(refused.detail)")
        }
        for order in Self.orders.dropFirst() {
            let records = try P.records(Self.body(shape, order: order))
            #expect(records == expected, "\(shape.name) as \(order)")
        }
    }

    @Test func pointsBeyondWhatMemoryHoldsWaitOnDiskAndKeepTheirOrder() throws {
        let count = HAEHeldPoints.memoryLimit + 2_500
        let points = (0..<count).map { index in
            "{\"qty\": \(index), \"date\": \"2024-02-06 14:00:00 -0800\"}"
        }.joined(separator: ",")
        let body =
            "{\"data\": {\"metrics\": [{\"data\": [\(points)], \"units\": \"count\", \"name\": \"step_count\"}]}}"
        let records = try P.records(body)
        #expect(records.count == count)
        #expect(records.allSatisfy { $0.unit == "count" && $0.type == "step_count" })
        #expect(records.map(\.value) == (0..<count).map { RawValue.text(String($0)) })
    }

    @Test func aMetricWithoutUnitsIsQuarantinedForThatAfterItsLastPoint() throws {
        let records = try P.records(
            #"{"data": {"metrics": [{"data": [{"qty": 1, "date": "2024-02-06 14:00:00 -0800"}], "name": "step_count"}]}}"#
        )
        #expect(records.count == 1)
        guard case .quarantined(let refused) = P.normalizer.normalize(try #require(records.first)) else {
            Issue.record("a step count without units was stored")
            return
        }
        #expect(refused.reason == .missingUnit)
    }
}
