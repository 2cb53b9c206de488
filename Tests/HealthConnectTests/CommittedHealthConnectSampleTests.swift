import Foundation
import HealthETLCore
import HealthETLTestSupport
import Synthetic
import Testing

@testable import HealthConnect

/// The committed sample is what the generator writes for its documented options, and reads whole.
@Suite struct CommittedHealthConnectSampleTests {
    static let path = TestPaths.repository("SampleExports/health-connect/Health Connect.zip")

    @Test func theCommittedSampleIsWhatTheGeneratorWrites() throws {
        let directory = TemporaryDirectory("healthetl-hc-sample")
        let path = directory.child("Health Connect.zip")
        _ = try HealthConnectExportGenerator(options: HealthConnectExportOptions(zipPath: path, days: 7, seed: 7)).run()
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: Self.path))
    }

    @Test func theCommittedSamplePassesTheSharedConformanceSuite() throws {
        let problems = try SourceConformance.problems(
            of: HealthConnectAdapter(), input: SourceInput(path: Self.path), catalog: MetricCatalog.bundled())
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
