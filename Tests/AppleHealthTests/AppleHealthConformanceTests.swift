import AppleHealth
import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

/// The source-plugin conformance checks, for `apple_health` on every real export and on the
/// bundled sample: records carry valid timestamps, distinct records get distinct non-zero ids,
/// the stream is named before any record, and the final cursor points at the end of the input.
@Suite struct AppleHealthConformanceTests {
    /// Collects what an adapter emits.
    final class Collector: SourceEventHandler {
        var stream: String?
        var records: [RawRecord] = []
        var checkpoints: [StreamCursor] = []
        var recordBeforeStream = false
        var endPosition: Int64?

        func receive(_ event: SourceEvent) throws {
            switch event {
            case .streamStarted(let name, _, _, let end):
                stream = name
                endPosition = end
            case .record(let record, _), .correlation(let record, _), .correlationComponent(let record, _),
                .auxiliaryRecord(let record, _):
                if stream == nil { recordBeforeStream = true }
                records.append(record)
            case .checkpoint(let cursor):
                checkpoints.append(cursor)
            case .deletion, .workout, .activitySummary, .document:
                break
            }
        }
    }

    static let inputs = [
        TestPaths.realExport("curated-v14/export.xml"),
        TestPaths.realExport("excerpts-v11/export.xml"),
        TestPaths.realExport("ios16-broken-dtd/export.zip"),
        TestPaths.realExport("inline-route/export.zip"),
        TestPaths.realExport("inline-route/export-flat.xml"),
        TestPaths.repository("SampleExports/apple-health-sample.zip"),
    ]

    @Test(arguments: inputs)
    func adapterConforms(_ path: String) throws {
        let adapter = AppleHealthAdapter()
        let input = SourceInput(path: path)
        #expect(adapter.recognize(input) == .recognized)
        var collector = Collector()
        let report = try adapter.read(input, into: &collector)
        #expect(report.complete, "\(report.problem ?? "")")
        #expect(!collector.recordBeforeStream)
        #expect(!collector.records.isEmpty)

        // Every record's dates parse; ends are not before starts in these files.
        for record in collector.records {
            let start = try #require(record.start.timestamp, "\(record.type)")
            let end = try #require(record.end.timestamp, "\(record.type)")
            #expect(end.instant >= start.instant)
        }

        // Distinct records get distinct ids; only exact repeats share one.
        var byID: [ContentID: RawRecord] = [:]
        for record in collector.records {
            let id = ContentID(
                metric: record.type, source: record.sourceName, start: record.start.timestamp!.instant,
                end: record.end.timestamp!.instant, value: record.value.asWritten, unit: record.unit)
            #expect(id != ContentID(high: 0, low: 0))
            if let earlier = byID[id] {
                #expect(earlier.value == record.value && earlier.unit == record.unit, "id collision")
            }
            byID[id] = record
        }

        // Checkpoints only move forward, and one covers the whole main file.
        let positions = collector.checkpoints.map(\.position)
        #expect(positions == positions.sorted())
        if let end = collector.endPosition {
            #expect(positions.contains(end))
        }
    }

    /// Every committed sample export and every real export, through the shared suite.
    static var everyExport: [String] {
        let samples = TestPaths.repository("SampleExports")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: samples)) ?? []
        return files.filter { $0.hasSuffix(".zip") || $0.hasSuffix(".xml") }.sorted().map { samples + "/" + $0 }
            + inputs.filter { !$0.hasPrefix(samples) }
    }

    @Test(arguments: everyExport)
    func passesTheSharedConformanceSuite(_ path: String) throws {
        let problems = try SourceConformance.problems(
            of: AppleHealthAdapter(), input: SourceInput(path: path), catalog: MetricCatalog.bundled())
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
