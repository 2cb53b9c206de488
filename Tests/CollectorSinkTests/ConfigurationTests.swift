import CollectorSink
import Foundation
import HealthETLTestSupport
import Testing

/// Endpoint validation (reliability P4) and token loading (P2).
@Suite struct ConfigurationTests {
    static let token = try! CollectorToken("config-token-0123456789abcdef")

    func code(_ endpoint: String, allowInsecureHTTP: Bool = false) -> CollectorSinkError.Code? {
        do {
            _ = try CollectorSinkConfiguration(
                endpoint: endpoint, token: Self.token, allowInsecureHTTP: allowInsecureHTTP)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func plainHTTPToAnotherHostIsRefusedUnlessAllowed() throws {
        for endpoint in [
            "http://collector.example.org", "http://10.0.0.7:8787", "http://127.0.0.1.example.org",
            "http://localhost.example.org",
            "http://[::2]:8787", "http://128.0.0.1",
        ] {
            #expect(code(endpoint) == .insecureEndpoint, "\(endpoint)")
            #expect(code(endpoint, allowInsecureHTTP: true) == nil, "\(endpoint)")
        }
        do {
            _ = try CollectorSinkConfiguration(endpoint: "http://collector.example.org", token: Self.token)
        } catch {
            #expect(error.message.contains("use https://") && error.message.contains("--allow-insecure-http"))
        }
    }

    @Test func plainHTTPToThisMachineIsAllowed() {
        for endpoint in [
            "http://127.0.0.1:8787", "http://127.9.8.7", "http://localhost:8787", "http://LOCALHOST",
            "http://[::1]:8787",
            "https://collector.example.org",
        ] {
            #expect(code(endpoint) == nil, "\(endpoint)")
        }
    }

    @Test func onlyHTTPAndHTTPSURLsWithAHostAndNoQueryAreAccepted() {
        for endpoint in [
            "ftp://collector.example.org", "file:///etc/passwd", "collector.example.org", "https://", "",
            "https://h/?a=b", "https://h/#x",
        ] {
            #expect(code(endpoint) == .invalidEndpoint, "\(endpoint)")
        }
    }

    @Test func credentialsInTheURLAreRefusedWithoutRepeatingThem() {
        do {
            _ = try CollectorSinkConfiguration(
                endpoint: "https://alice:s3cr3t-pass@collector.example.org", token: Self.token)
            Issue.record("accepted a URL with a password")
        } catch {
            #expect(error.code == .invalidEndpoint)
            #expect(!error.message.contains("s3cr3t") && error.message.contains("token file"))
        }
    }

    @Test func theEndpointIsNormalizedAndDefaultsApply() throws {
        let configuration = try CollectorSinkConfiguration(
            endpoint: "HTTPS://collector.example.org/healthetl/", token: Self.token)
        #expect(configuration.endpoint == "https://collector.example.org/healthetl")
        #expect(configuration.connectTimeout == .seconds(10) && configuration.requestTimeout == .seconds(60))
        #expect(configuration.zstdLevel == 3 && !configuration.allowInsecureHTTP)
    }

    @Test func timeoutsAndTheZstdLevelAreChecked() {
        #expect(throws: CollectorSinkError.self) {
            try CollectorSinkConfiguration(endpoint: "https://h", token: Self.token, requestTimeout: .zero)
        }
        #expect(throws: CollectorSinkError.self) {
            try CollectorSinkConfiguration(endpoint: "https://h", token: Self.token, zstdLevel: 99)
        }
    }

    @Test func theTokenNeverAppearsInDescriptions() throws {
        let secret = "very-secret-token-0123456789"
        let token = try CollectorToken(secret)
        let configuration = try CollectorSinkConfiguration(
            endpoint: "https://collector.example.org", token: token)
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [
            "\(configuration)", String(reflecting: configuration), "\(token)", String(reflecting: token),
            dumped,
        ] {
            #expect(!text.contains(secret), "\(text)")
        }
        #expect(
            "\(configuration)".contains("https://collector.example.org")
                && "\(configuration)".contains("<redacted>"))
    }

    // MARK: - Token files

    func write(_ text: String, mode: Int, in directory: TemporaryDirectory, name: String = "token") -> String {
        let path = directory.child(name)
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        // createFile applies the umask; set the mode the test means.
        try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func aTokenFileOthersCanReadIsRefusedWithTheChmodHint() {
        let directory = TemporaryDirectory("sink-token")
        let secret = "readable-token-0123456789abcdef"
        let path = write(secret + "\n", mode: 0o644, in: directory)
        do {
            _ = try CollectorToken.load(tokenFile: path, environment: [:])
            Issue.record("accepted a token file with mode 0644")
        } catch {
            #expect(error.code == .tokenFileNotPrivate)
            #expect(error.message.contains("chmod 600 \(path)") && error.message.contains("644"))
            #expect(!error.message.contains(secret))
        }
    }

    @Test func aPrivateTokenFileIsReadAndTrimmed() throws {
        let directory = TemporaryDirectory("sink-token")
        let path = write("  file-token-0123456789abcdef \n", mode: 0o600, in: directory)
        #expect(
            try CollectorToken.load(tokenFile: path, environment: [:])
                == CollectorToken("file-token-0123456789abcdef"))
    }

    @Test func theCredentialsDirectoryIsUsedWhenNoFileIsGiven() throws {
        let credentials = TemporaryDirectory("sink-credentials")
        _ = write(
            "systemd-token-0123456789abcdef\n", mode: 0o400, in: credentials,
            name: CollectorToken.credentialName)
        let environment = ["CREDENTIALS_DIRECTORY": credentials.path]
        #expect(
            try CollectorToken.load(tokenFile: nil, environment: environment)
                == CollectorToken("systemd-token-0123456789abcdef"))

        // An explicit file wins over the credential.
        let other = TemporaryDirectory("sink-token")
        let path = write("file-token-0123456789abcdef", mode: 0o600, in: other)
        #expect(
            try CollectorToken.load(tokenFile: path, environment: environment)
                == CollectorToken("file-token-0123456789abcdef"))
    }

    @Test func noTokenSourceOrAnEmptyDirectorySaysHowToProvideOne() {
        for environment in [[:], ["CREDENTIALS_DIRECTORY": TemporaryDirectory("sink-empty").path]] {
            do {
                _ = try CollectorToken.load(tokenFile: nil, environment: environment)
                Issue.record("found a token where there is none")
            } catch {
                #expect(error.code == .tokenMissing)
                #expect(
                    error.message.contains("--token-file")
                        && error.message.contains("LoadCredential=healthetl-token"))
            }
        }
    }

    @Test func anEmptyMissingOrMultiWordTokenIsRefused() {
        let directory = TemporaryDirectory("sink-token")
        let cases: [(String, CollectorSinkError.Code)] = [
            (write(" \n\t\n", mode: 0o600, in: directory, name: "empty"), .tokenInvalid),
            (write("two words", mode: 0o600, in: directory, name: "spaced"), .tokenInvalid),
            (directory.child("absent"), .tokenFileUnreadable),
            (directory.path, .tokenFileUnreadable),
        ]
        for (path, expected) in cases {
            do {
                _ = try CollectorToken(file: path)
                Issue.record("accepted \(path)")
            } catch {
                #expect(error.code == expected, "\(path): \(error.message)")
                #expect(error.message.contains(path))
                #expect(!error.message.contains("two words"))
            }
        }
    }
}
