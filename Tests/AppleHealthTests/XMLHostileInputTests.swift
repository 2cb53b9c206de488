import AppleHealth
import Foundation
import HealthETLTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// X1 and X2 of docs/reliability.md: external entities, external DTDs and entity amplification.
@Suite(.serialized) struct XMLHostileInputTests {
    /// A secret the attacks try to read, in a temporary directory.
    final class Secret {
        let directory = TemporaryDirectory("healthetl-xxe")
        let text = "TOP-SECRET-" + UUID().uuidString
        var file: String { directory.child("secret.txt") }
        var dtd: String { directory.child("secret.dtd") }

        init() throws {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            try "<!ENTITY leak \"\(text)\">".write(toFile: dtd, atomically: true, encoding: .utf8)
        }
    }

    /// A listening TCP socket on 127.0.0.1 that tells whether anyone connected to it.
    final class Listener {
        let descriptor: Int32
        let port: UInt16

        init() throws {
            (descriptor, port) = try LoopbackPort.bound(listening: true)
            _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        }

        /// Whether a connection is waiting (the kernel completes the handshake without `accept`).
        var wasContacted: Bool {
            let connection = accept(descriptor, nil, nil)
            if connection >= 0 { close(connection) }
            return connection >= 0
        }

        deinit { close(descriptor) }
    }

    static func attacks(secret: Secret, port: UInt16) -> [(String, String)] {
        let url = "http://127.0.0.1:\(port)"
        return [
            (
                "file:// general entity",
                """
                <?xml version="1.0"?>
                <!DOCTYPE HealthData [<!ENTITY xxe SYSTEM "file://\(secret.file)">]>
                <HealthData><Record sourceName="&xxe;">&xxe;</Record></HealthData>
                """
            ),
            (
                "external parameter entity",
                """
                <!DOCTYPE HealthData [<!ENTITY % ext SYSTEM "file://\(secret.dtd)"> %ext;]>
                <HealthData><Record sourceName="&leak;"/></HealthData>
                """
            ),
            (
                "external SYSTEM DTD",
                """
                <!DOCTYPE HealthData SYSTEM "file://\(secret.dtd)">
                <HealthData><Record sourceName="&leak;"/></HealthData>
                """
            ),
            (
                "external PUBLIC DTD over http",
                """
                <!DOCTYPE HealthData PUBLIC "-//Evil//DTD x//EN" "\(url)/x.dtd" [ ]>
                <HealthData><Record sourceName="&leak;"/></HealthData>
                """
            ),
            (
                "http:// general entity",
                """
                <!DOCTYPE HealthData [<!ENTITY net SYSTEM "\(url)/steal">]>
                <HealthData><Record sourceName="&net;"/></HealthData>
                """
            ),
            (
                "entity after a comment holding ]>",
                """
                <!DOCTYPE HealthData [<!-- ]> --> <!ENTITY xxe SYSTEM "file://\(secret.file)"> ]>
                <HealthData><Record sourceName="&xxe;"/></HealthData>
                """
            ),
        ]
    }

    @Test("X1: XXE through entities and external DTDs is rejected as hostile; no secret, no network")
    func externalEntities() throws {
        let secret = try Secret()
        let listener = try Listener()
        for (name, xml) in Self.attacks(secret: secret, port: listener.port) {
            for chunkSize in [1, 1 << 20] {
                let recorder = XMLEventRecorder()
                let error = try XMLTestInput.failure(
                    XMLTestInput.bytes(xml), chunkSize: chunkSize, into: recorder)
                #expect(
                    error?.kind == .hostile, "\(name), chunks of \(chunkSize): \(String(describing: error))")
                #expect(error?.line == 1 || error?.line == 2, "\(name)")
                #expect(recorder.events.isEmpty, "\(name): nothing after a hostile DOCTYPE is delivered")
                let delivered = recorder.values + recorder.events + [error?.description ?? ""]
                #expect(!delivered.contains { $0.contains(secret.text) }, "\(name)")
            }
        }
        #expect(!listener.wasContacted)
    }

    @Test(
        "X1: an undeclared entity is an error, never substituted",
        arguments: [
            #"<HealthData><Record sourceName="&xxe;"/></HealthData>"#,
            "<HealthData><Record>&xxe;</Record></HealthData>",
            #"<!DOCTYPE HealthData [ <!ELEMENT HealthData ANY> ]><HealthData><R a="&xxe;"/></HealthData>"#,
        ])
    func undeclaredEntity(_ xml: String) throws {
        let recorder = XMLEventRecorder()
        let error = try #require(try XMLTestInput.failure(XMLTestInput.bytes(xml), into: recorder))
        #expect(error.kind == .malformed || error.kind == .hostile)
        #expect(error.message.contains("xxe"))
        #expect(!recorder.values.contains { $0.contains("xxe") })
    }

    @Test(
        "X1: DOCTYPE tricks around the filter end in an error, never in a parsed entity",
        arguments: [
            // A quoted `]>` ends the skipped block early; libxml2 then sees junk in the prolog.
            #"<!DOCTYPE r [ <!ATTLIST r a CDATA "]>"> <!ENTITY x "boom"> ]><r a="&x;"/>"#,
            // A second DOCTYPE.
            #"<!DOCTYPE r [ ]> <!DOCTYPE r [ <!ENTITY x "boom"> ]><r a="&x;"/>"#,
            // A DOCTYPE inside the root element.
            #"<r><!DOCTYPE r [ <!ENTITY x "boom"> ]><s a="&x;"/></r>"#,
            // A DOCTYPE after the root element.
            #"<r/><!DOCTYPE r [ <!ENTITY x "boom"> ]>"#,
        ])
    func filterEvasion(_ xml: String) throws {
        let recorder = XMLEventRecorder()
        let error = try XMLTestInput.failure(XMLTestInput.bytes(xml), chunkSize: 3, into: recorder)
        #expect(error != nil)
        #expect(!recorder.values.contains("boom"))
    }

    @Test("X2: billion laughs and a quadratic blow-up are rejected in < 1 s and < 50 MB")
    func entityAmplification() throws {
        var laughs = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">"#
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        laughs += "]><lolz a=\"&lol9;\">&lol9;</lolz>"

        let references = String(repeating: "&a;", count: 20_000)
        let quadratic =
            "<!DOCTYPE r [<!ENTITY a \"" + String(repeating: "a", count: 100_000) + "\">]>"
            + "<r v=\"\(references)\">\(references)</r>"

        for (name, xml) in [("billion laughs", laughs), ("quadratic blow-up", quadratic)] {
            let bytes = XMLTestInput.bytes(xml)
            let memoryBefore = ProcessMemory.startOwnPeakMeasurement()
            let clock = ContinuousClock()
            var error: XMLStreamError?
            let elapsed = try clock.measure {
                error = try XMLTestInput.failure(bytes, chunkSize: 64 * 1024, into: XMLEventRecorder())
            }
            let peakGrowth = (ProcessMemory.ownPeakResidentBytes() ?? 0) - memoryBefore
            #expect(error?.kind == .hostile, "\(name)")
            #expect(elapsed < .seconds(1), "\(name) took \(elapsed)")
            #expect(peakGrowth < 50 << 20, "\(name): peak memory grew by \(peakGrowth >> 20) MB")
        }
    }
}
