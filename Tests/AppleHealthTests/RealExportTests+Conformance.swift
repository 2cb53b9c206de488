import HealthETLTestSupport
import Testing

extension RealExportTests {
    /// The shared source conformance suite on every real export.
    @Suite struct Conformance {
        static let realExports = [
            RealExports.path("curated-v14/export.xml"),
            RealExports.path("excerpts-v11/export.xml"),
            RealExports.path("ios16-broken-dtd/export.zip"),
            RealExports.path("inline-route/export.zip"),
            RealExports.path("inline-route/export-flat.xml"),
        ]

        @Test(arguments: realExports)
        func passesTheSharedConformanceSuite(_ path: String) throws {
            try AppleHealthConformanceTests.expectConformance(path)
        }
    }
}
