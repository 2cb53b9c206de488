import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import FIT

/// `import` finds FIT by content: a FIT header, gunzipped or in a zip or a zip's zip, never a name.
struct FITRecognitionTests {
    let folder = TemporaryDirectory("fit-recognition")

    func recognizes(_ name: String, _ bytes: [UInt8]) throws -> Bool {
        let path = folder.child(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return FITAdapter().recognize(SourceInput(path: path)) == .recognized
    }

    @Test func fitHeadersAreRecognisedWhereverTheySit() throws {
        let fit = FITTestFile.heartRates(3)
        #expect(try recognizes("a.fit", fit))
        #expect(try recognizes("renamed.bin", fit))
        let inner = FITHostileInputTests.zip("Activity/a.fit", fit)
        #expect(try recognizes("watch.zip", inner))
        #expect(try recognizes("garmin-export.zip", FITHostileInputTests.zip("DI_CONNECT/UploadedFiles_0.zip", inner)))
        let gzip = try CommandRunner(executable: "/bin/gzip").run([folder.child("a.fit")])
        #expect(gzip.exitCode == 0)
        #expect(FITAdapter().recognize(SourceInput(path: folder.child("a.fit.gz"))) == .recognized)
        #expect(FITAdapter().recognize(SourceInput(path: folder.path)) == .recognized)
    }

    @Test func namesAloneAreNotFIT() throws {
        #expect(try !recognizes("fake.fit", Array("not a fit file at all".utf8)))
        #expect(
            try !recognizes(
                "export.zip", FITHostileInputTests.zip("apple_health_export/export.xml", Array("<x/>".utf8))))
        var cut = FITHostileInputTests.zip("a.fit", FITTestFile.heartRates(3))
        cut.removeLast(30)
        #expect(try !recognizes("cut.zip", cut))
    }
}
