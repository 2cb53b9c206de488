import AppleHealth
import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

/// The shared source conformance suite (`SourceConformance`) for `apple_health`, on every
/// committed sample export and on `ExportQuirksFixture` in every form (the real exports go
/// through it in `RealExportTests.Conformance`): the adapter recognises the file by content,
/// reads it completely, and its records and cursors pass every check.
@Suite struct AppleHealthConformanceTests {
    let directory = TemporaryDirectory("conformance-quirks")

    static var committedSamples: [String] {
        let samples = TestPaths.repository("SampleExports")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: samples)) ?? []
        return files.filter { $0.hasSuffix(".zip") || $0.hasSuffix(".xml") }.sorted().map {
            samples + "/" + $0
        }
    }

    @Test(arguments: committedSamples)
    func committedSamplePassesTheSharedConformanceSuite(_ path: String) throws {
        try Self.expectConformance(path)
    }

    @Test(arguments: ExportQuirksForm.allCases)
    func generatedExportPassesTheSharedConformanceSuite(_ form: ExportQuirksForm) throws {
        try Self.expectConformance(try form.write(in: directory))
    }

    static func expectConformance(_ path: String) throws {
        let problems = try Self.problems(of: path)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    /// What the shared suite finds wrong with reading `path`, once the adapter recognised it.
    static func problems(of path: String) throws -> [String] {
        #expect(AppleHealthAdapter().recognize(SourceInput(path: path)) == .recognized)
        return try SourceConformance.problems(
            of: AppleHealthAdapter(), input: SourceInput(path: path), catalog: MetricCatalog.bundled())
    }
}
