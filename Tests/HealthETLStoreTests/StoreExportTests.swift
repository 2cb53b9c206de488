import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import HealthETLStore

/// The reads behind `export` and `report`: order, selection, panels with their components.
@Suite struct StoreExportTests {
    let directory = TemporaryDirectory()

    func openStore() throws -> Store {
        try Store(directory: StoreDirectory(path: directory.child("store")), clock: .fixed(RecordFixtures.now))
    }

    func sample(_ metric: String, minute: Int, value: Double?, source: String = "cuff", offset: Int32 = 3600) -> Sample
    {
        let start = Instant(millisecondsSinceEpoch: 1_709_276_400_000 + Int64(minute) * 60_000)
        return Sample(
            id: ContentID(
                metric: metric, source: source, start: start, end: start, value: value.map { "\($0)" }, unit: nil),
            metric: metric, sourceName: source, start: start, end: start, utcOffsetSeconds: offset, value: value)
    }

    func commit(_ samples: [Sample], into store: Store) throws {
        try store.commit(
            CommitBatch(stream: "test", samples: samples.map { LanedSample($0, lane: .cold) }, cursors: [.cold: 1]))
    }

    /// The samples read, as (metric, value, source) with names resolved, and the components' too.
    struct Read: Equatable {
        var metric: String
        var value: Double?
        var source: String
        var offset: Int32?
        var components: [Read]
    }

    func read(_ store: Store, _ selection: SampleSelection) throws -> [Read] {
        var names = ExportNames()
        var read: [Read] = []
        func resolved(_ sample: ExportedSample) -> Read {
            Read(
                metric: names.metric(of: sample), value: sample.value, source: names.source(of: sample),
                offset: sample.utcOffsetSeconds, components: sample.components.map(resolved))
        }
        try store.exportSamples(selection) {
            names = $0
        } _: {
            read.append(resolved($0))
        }
        return read
    }

    @Test func readsMetricByMetricInStartOrderAndFiltersBySourceAndStart() throws {
        let store = try openStore()
        try commit(
            [
                sample("heart_rate", minute: 5, value: 70), sample("heart_rate", minute: 1, value: 60),
                sample("step_count", minute: 2, value: 10, source: "phone"),
                sample("heart_rate", minute: 3, value: 65, source: "phone"),
            ], into: store)
        let all = try read(store, SampleSelection(metrics: ["step_count", "heart_rate"]))
        #expect(all.map(\.metric) == ["step_count", "heart_rate", "heart_rate", "heart_rate"])
        #expect(all.dropFirst().map(\.value) == [60, 65, 70])
        #expect(all[0].offset == 3600 && all[0].source == "phone")

        let phone = try read(store, SampleSelection(metrics: ["heart_rate", "step_count"], source: "phone"))
        #expect(phone.map(\.value) == [65, 10])
        let early = Instant(millisecondsSinceEpoch: 1_709_276_400_000)
        let firstMinutes = try read(
            store, SampleSelection(metrics: ["heart_rate"], starts: early..<early.adding(seconds: 240)))
        #expect(firstMinutes.map(\.value) == [60, 65])
        #expect(try store.sourceNames() == ["cuff", "phone"])
        // Local days: the first sample starts 08:01 at +01:00 on 2024-03-01.
        #expect(try store.sampleLocalDays()?.lowerBound.description == "2024-03-01")
    }

    @Test func aPanelHoldsItsFirstComponentsAndASecondReadingStaysOnItsOwn() throws {
        let store = try openStore()
        try commit(
            [
                sample("blood_pressure", minute: 0, value: nil),
                sample("blood_pressure_systolic", minute: 0, value: 120),
                sample("blood_pressure_diastolic", minute: 0, value: 80),
                // A second systolic reading of the same instant from the same source.
                sample("blood_pressure_systolic", minute: 0, value: 125),
                // A reading without a panel.
                sample("blood_pressure_systolic", minute: 9, value: 130),
            ], into: store)
        let panels = ["blood_pressure": ["blood_pressure_systolic", "blood_pressure_diastolic"]]
        let metrics = ["blood_pressure", "blood_pressure_diastolic", "blood_pressure_systolic"]
        let read = try read(store, SampleSelection(metrics: metrics, panels: panels))
        #expect(read.map(\.metric) == ["blood_pressure", "blood_pressure_systolic", "blood_pressure_systolic"])
        #expect(read[0].components.map(\.metric) == ["blood_pressure_systolic", "blood_pressure_diastolic"])
        #expect(read[0].components.map(\.value) == [120, 80])
        #expect(read.dropFirst().map(\.value) == [125, 130])
        // Every sample is there once: the panel, its two components, the two others.
        #expect(read.count + read.map(\.components.count).reduce(0, +) == 5)

        // Without panels (CSV, NDJSON) every sample is its own row.
        #expect(try self.read(store, SampleSelection(metrics: metrics)).count == 5)
    }

    @Test func countsPerSourceAndLocalDayAndFlags() throws {
        let store = try openStore()
        var flagged = sample("heart_rate", minute: 2, value: 300)
        flagged.flags = [.outOfPlausibleRange, .summarized]
        // 2024-03-01T07:00Z at −08:00 is still 2024-02-29 locally.
        try commit(
            [
                sample("heart_rate", minute: 1, value: 60), flagged,
                sample("heart_rate", minute: 3, value: 61, offset: -28800),
            ],
            into: store)
        let leap = CivilDate(year: 2024, month: 2, day: 29)!
        let counts = try store.sampleCounts(days: leap...leap.adding(days: 1))
        #expect(counts.coverage.map(\.day.description) == ["2024-02-29", "2024-03-01"])
        #expect(counts.coverage.map(\.samples) == [1, 2])
        #expect(counts.flagged == ["out_of_plausible_range": 1])
        // Only the days asked for, counted by their local day, flags included.
        let firstDay = try store.sampleCounts(days: leap...leap)
        #expect(firstDay.coverage.map(\.samples) == [1])
        #expect(firstDay.flagged.isEmpty)
    }
}
