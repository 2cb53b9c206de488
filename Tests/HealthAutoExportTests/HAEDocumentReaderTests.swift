import Testing

@testable import HealthAutoExport

/// Finding HAE's items in a token stream: points with their metric, section items whole, with
/// or without the envelope, whatever the chunking, and unknown sections read past.
@Suite struct HAEDocumentReaderTests {
    static func events(_ text: String, chunk: Int = 5) throws -> ([HAEDocumentReader.Event], Set<String>) {
        var reader = HAEDocumentReader()
        var events: [HAEDocumentReader.Event] = []
        for token in try JSONTokenizerTests.tokens(text, chunk: chunk) {
            try reader.take(token) { events.append($0) }
        }
        try reader.finish { events.append($0) }
        return (events, reader.ignoredSections)
    }

    static let body = """
        {"metrics": [
            {"name": "step_count", "units": "count", "data": [
                {"qty": 120, "date": "2024-02-06 14:30:00 -0800", "source": "Watch|iPhone"},
                {"qty": 80, "date": "2024-02-06 14:31:00 -0800", "source": "Watch"}]},
            {"data": [{"Min": 55, "Avg": 61.5, "Max": 70, "date": "2024-02-06 14:30:00 -0800"}],
             "units": "count/min", "name": "heart_rate"}],
         "workouts": [{"name": "Running", "route": [{"latitude": 52.5, "longitude": 13.4}]}],
         "somethingNew": [{"x": 1}]}
        """

    @Test(arguments: [false, true])
    func pointsAndItemsComeOutWithOrWithoutTheEnvelope(_ enveloped: Bool) throws {
        let text = enveloped ? "{\"data\": \(Self.body)}" : Self.body
        let (events, ignored) = try Self.events(text)
        let points = events.compactMap { event -> (String, String?)? in
            if case .point(let metric, let units, _) = event { (metric, units) } else { nil }
        }
        #expect(points.map(\.0) == ["step_count", "step_count", "heart_rate"])
        #expect(points.map(\.1) == ["count", "count", "count/min"], "a name and units after the data still count")
        guard case .point(_, _, let first) = events[0] else {
            Issue.record("the first event is not a point")
            return
        }
        #expect(first["qty"] == .number("120"))
        #expect(first["source"]?.text == "Watch|iPhone")
        let workouts = events.compactMap { event -> JSONValue? in
            if case .item("workouts", let value) = event { value } else { nil }
        }
        #expect(workouts.count == 1)
        #expect(
            workouts.first?["route"]
                == .array([.object([("latitude", .number("52.5")), ("longitude", .number("13.4"))])]))
        #expect(ignored == ["somethingNew"])
    }

    @Test func chunkingChangesNothing() throws {
        let whole = try Self.events(Self.body, chunk: 1 << 16).0
        #expect(try Self.events(Self.body, chunk: 1).0 == whole)
        #expect(whole.count == 4)
    }
}
