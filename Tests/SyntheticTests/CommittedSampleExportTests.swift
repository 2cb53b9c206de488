import Foundation
import HealthETLTestSupport
import Testing

@testable import Synthetic

/// The committed `SampleExports/apple-health-sample.zip` is exactly what the generator writes for
/// the record count and seed its README records, so it can always be regenerated, never hand-edited.
@Suite struct CommittedSampleExportTests {
    static let sample = "SampleExports/apple-health-sample.zip"

    /// `--records N --seed S` from the sample's row in SampleExports/README.md.
    static func recordedParameters() throws -> (records: Int, seed: UInt64) {
        let readme = try String(
            contentsOfFile: TestPaths.repository("SampleExports/README.md"), encoding: .utf8)
        let row = try #require(
            readme.split(separator: "\n").first { $0.contains("`apple-health-sample.zip`") },
            "SampleExports/README.md has no row for apple-health-sample.zip")
        func value(after flag: String) throws -> Substring {
            let words = row.split(whereSeparator: { $0 == " " || $0 == "`" })
            let index = try #require(words.firstIndex(of: Substring(flag)), "the row does not say \(flag)")
            return try #require(words.dropFirst(index + 1).first, "\(flag) has no value")
        }
        let records = try #require(Int(try value(after: "--records")))
        let seed = try #require(UInt64(try value(after: "--seed")))
        return (records, seed)
    }

    @Test func committedSampleIsWhatTheGeneratorWrites() throws {
        let (records, seed) = try Self.recordedParameters()
        #expect(records == 8000 && seed == 7)
        let directory = TemporaryDirectory("committed-sample")
        let path = directory.child("apple-health-sample.zip")
        _ = try AppleExportGenerator(options: AppleExportOptions(records: records, seed: seed, zipPath: path))
            .run()

        let generated = try Data(contentsOf: URL(fileURLWithPath: path))
        let committed = try Data(contentsOf: URL(fileURLWithPath: TestPaths.repository(Self.sample)))
        #expect(
            generated == committed,
            """
            \(Self.sample) (\(committed.count) bytes) differs from what the generator writes for \
            --records \(records) --seed \(seed) (\(generated.count) bytes). If the generator changed on \
            purpose, regenerate the sample; if only the compressed bytes differ, check the zlib version.
            """)
    }
}
