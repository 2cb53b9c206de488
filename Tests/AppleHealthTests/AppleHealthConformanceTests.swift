import AppleHealth
import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

/// The shared source conformance suite (`SourceConformance`) for `apple_health`, on every
/// committed sample export and every real export: the adapter recognises the file by content,
/// reads it completely, and its records and cursors pass every check.
@Suite struct AppleHealthConformanceTests {
    static let realExports = [
        TestPaths.realExport("curated-v14/export.xml"),
        TestPaths.realExport("excerpts-v11/export.xml"),
        TestPaths.realExport("ios16-broken-dtd/export.zip"),
        TestPaths.realExport("inline-route/export.zip"),
        TestPaths.realExport("inline-route/export-flat.xml"),
    ]

    /// Every committed sample export and every real export, through the shared suite.
    static var everyExport: [String] {
        let samples = TestPaths.repository("SampleExports")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: samples)) ?? []
        return files.filter { $0.hasSuffix(".zip") || $0.hasSuffix(".xml") }.sorted().map { samples + "/" + $0 }
            + realExports
    }

    @Test(arguments: everyExport)
    func passesTheSharedConformanceSuite(_ path: String) throws {
        #expect(AppleHealthAdapter().recognize(SourceInput(path: path)) == .recognized)
        let problems = try SourceConformance.problems(
            of: AppleHealthAdapter(), input: SourceInput(path: path), catalog: MetricCatalog.bundled())
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
