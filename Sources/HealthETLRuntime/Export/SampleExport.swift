import Foundation
import HealthETLCore
import HealthETLOutput
import HealthETLStore

/// `healthetl export` of samples: streamed from the store one sample at a time into CSV, NDJSON
/// or FHIR (a bundle, or Bulk Data files), so memory stays flat however large the store is.
public struct SampleExport {
    public let request: ExportRequest

    public init(request: ExportRequest) {
        self.request = request
    }

    /// - Parameter progress: called every 100,000 samples with the count and the metric being read.
    public func run(
        store directory: StoreDirectory, catalog: MetricCatalog, clock: Clock = .system,
        progress: ((Int, String) -> Void)? = nil
    ) throws -> ExportSummary {
        let started = clock.now()
        try request.checkCombination()
        let store = try Store(directory: directory, clock: clock)
        if let source = request.source {
            let known = try store.sourceNames()
            guard known.contains(source) else { throw ExportError.unknownSource(source, known: known) }
        }
        var selection = SampleSelection(
            metrics: try request.metricIDs(catalog), starts: request.startWindow, source: request.source)
        var tally = MetricTally()
        let files: [String]
        let bytes: Int
        switch request.format {
        case .fhir where request.bulk:
            selection.panels = Self.panels(catalog)
            let folder = try BulkFolder(path: request.output)
            // The Observations first: a run that fails on the way leaves no new Patient file
            // beside an old Observation file.
            var format = FHIRObservationLines(catalog: catalog)
            let observations = try ExportOutput(path: folder.file("Observation.ndjson"))
            try write(&format, store, selection, clock, observations, &tally, progress)
            let patients = try ExportOutput(path: folder.file("Patient.ndjson"))
            try patients.append { bytes in
                FHIRPatient.appendResource(to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
            try patients.finish()
            files = [patients.path, observations.path]
            bytes = patients.bytesWritten + observations.bytesWritten
        case .fhir:
            selection.panels = Self.panels(catalog)
            var format = FHIRBundleFormat(catalog: catalog, timestamp: clock.now())
            (files, bytes) = try writeOne(&format, store, selection, clock, &tally, progress)
        case .csv:
            var format = CSVSampleFormat(units: Self.units(catalog), formulas: request.csvFormulas)
            (files, bytes) = try writeOne(&format, store, selection, clock, &tally, progress)
        case .ndjson:
            selection.metadata = true
            var format = NDJSONSampleFormat(units: Self.units(catalog))
            (files, bytes) = try writeOne(&format, store, selection, clock, &tally, progress)
        }
        let written = tally.byMetric
        return ExportSummary(
            format: request.format, content: "samples", output: request.output, files: files,
            records: written.values.reduce(0, +), byMetric: written,
            observations: request.format == .fhir ? tally.total : nil, sleepNights: nil,
            withoutLOINC: request.format == .fhir
                ? written.keys.filter { catalog.metric(named: $0)?.definition.loinc == nil }.sorted() : nil,
            bytes: bytes, seconds: started.seconds(until: clock.now()))
    }

    private func writeOne<Format: SampleFormat>(
        _ format: inout Format, _ store: Store, _ selection: SampleSelection, _ clock: Clock,
        _ tally: inout MetricTally, _ progress: ((Int, String) -> Void)?
    ) throws -> (files: [String], bytes: Int) {
        let output = try ExportOutput(path: request.output)
        try write(&format, store, selection, clock, output, &tally, progress)
        return (request.output == "-" ? [] : [request.output], output.bytesWritten)
    }

    private func write<Format: SampleFormat>(
        _ format: inout Format, _ store: Store, _ selection: SampleSelection, _ clock: Clock, _ output: ExportOutput,
        _ tally: inout MetricTally, _ progress: ((Int, String) -> Void)?
    ) throws {
        let reader = ThreadedSampleReader(directory: store.directory, selection: selection, clock: clock)
        try reader.forEach { names in
            tally.names = names
            try output.append { format.begin(names: names, into: &$0) }
        } _: { exported in
            guard request.covers(exported) else { return }
            try output.append { format.append(exported, into: &$0) }
            tally.count(exported)
            if tally.total % 100_000 == 0 { progress?(tally.total, tally.names.metric(of: exported)) }
        }
        try output.append { format.finish(into: &$0) }
        try output.finish()
    }

    /// Canonical unit per metric id.
    static func units(_ catalog: MetricCatalog) -> [String: String] {
        catalog.metrics.reduce(into: [:]) { units, metric in units[metric.id] = metric.unit }
    }

    /// Correlations FHIR has a panel code for, with their components: blood pressure (85354-9)
    /// and its two readings. Others (a food entry and its nutrients) go out as their samples.
    static func panels(_ catalog: MetricCatalog) -> [String: [String]] {
        catalog.metrics.filter { $0.kind == .correlation && $0.loinc != nil && !$0.components.isEmpty }
            .reduce(into: [:]) { panels, metric in panels[metric.id] = metric.components }
    }
}
