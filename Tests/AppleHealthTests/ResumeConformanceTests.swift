import AppleHealth
import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

/// The source conformance suite's resume check bites: an adapter that declares `.resumable` and
/// ignores its cursors fails it, and `apple_health` passes it on a file it resumes mid-way.
@Suite struct ResumeConformanceTests {
    let directory = TemporaryDirectory("healthetl-resume-conformance")

    /// `apple_health` with its cursors thrown away: it reads every input from the start.
    struct ForgetfulAdapter: SourceAdapter {
        static let name = "forgetful"
        static let summary = "apple_health, but it ignores its cursors"
        static let capabilities: SourceCapabilities = [.exports, .resumable]

        func recognize(_ input: SourceInput) -> SourceRecognition { AppleHealthAdapter().recognize(input) }

        func read(_ input: SourceInput, into handler: inout some SourceEventHandler) throws -> SourceReadReport {
            var fresh = input
            fresh.resumeFrom = []
            return try AppleHealthAdapter().read(fresh, into: &handler)
        }
    }

    func largeExport() throws -> String {
        var builder = ExportXMLBuilder()
        builder.addHeartRates(0..<20_000)
        let path = directory.child("large.xml")
        try builder.write(to: path)
        return path
    }

    @Test func anAdapterThatIgnoresItsCursorFails() throws {
        let problems = try SourceConformance.problems(
            of: ForgetfulAdapter(), input: SourceInput(path: try largeExport()), catalog: MetricCatalog.bundled())
        #expect(problems.contains { $0.contains("ignores its cursor") }, "\(problems)")
    }

    @Test func appleHealthResumesPartWayThroughALargeFile() throws {
        let path = try largeExport()
        let problems = try SourceConformance.problems(
            of: AppleHealthAdapter(), input: SourceInput(path: path), catalog: MetricCatalog.bundled())
        #expect(problems.isEmpty, "\(problems)")
    }
}
