import Foundation
import HealthETLCore
import HealthETLRuntime
import HealthETLTestSupport
import Testing

/// The store's config.json: one section per plugin, checked against the registry.
@Suite struct StoreConfigurationTests {
    let directory = TemporaryDirectory("healthetl-config")

    func write(_ json: String) throws -> String {
        let store = directory.child("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            atPath: store, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try json.write(toFile: StoreConfiguration.path(store: store), atomically: true, encoding: .utf8)
        return store
    }

    var collector: PluginDescriptor { PluginRegistry.descriptor(kind: .sink, name: "collector")! }

    @Test func sectionsAreReadByPluginAndWrittenPrivately() throws {
        let store = try write(
            """
            {"projections": {"source_priority": ["My Watch"]},
             "sinks": {"collector": {"endpoint": "https://collector.example.org", "batch_samples": 200,
                                     "allow_insecure_http": false}}}
            """)
        var configuration = try StoreConfiguration.load(store: store)
        #expect(configuration.sourcePriority == ["My Watch"])
        let settings = configuration.settings(for: collector)
        #expect(settings.section == "sinks.collector")
        #expect(try settings.text("endpoint") == "https://collector.example.org")
        #expect(try settings.integer("batch_samples") == 200)
        #expect(try settings.flag("allow_insecure_http") == false)
        #expect(throws: PluginSettingsError(section: "sinks.collector", key: "endpoint", expected: "true or false")) {
            try settings.flag("endpoint")
        }

        configuration.set("token_file", .text("/etc/healthetl/token"), for: collector)
        try configuration.save(store: store)
        let mode = try FileManager.default.attributesOfItem(atPath: StoreConfiguration.path(store: store))[
            .posixPermissions]
        #expect((mode as? NSNumber)?.intValue == 0o600)
        let reread = try StoreConfiguration.load(store: store)
        #expect(reread == configuration)
        #expect(try reread.settings(for: collector).text("token_file") == "/etc/healthetl/token")
    }

    @Test func theServeSectionNamesTheCollectorsDatabaseAndIsKeptOnSave() throws {
        let url = "postgres://healthetl@db.example.org/healthetl?sslmode=verify-full"
        let store = try write(#"{"serve": {"database": "\#(url)", "database_pool": 8}}"#)
        var configuration = try StoreConfiguration.load(store: store)
        #expect(configuration.serve == ServeSettings(database: url, databasePool: 8))
        configuration.sourcePriority = ["Oura"]
        try configuration.save(store: store)
        #expect(try StoreConfiguration.load(store: store).serve == ServeSettings(database: url, databasePool: 8))
        try Data(#"{"serve": {"database_pool": 0}}"#.utf8)
            .write(to: URL(fileURLWithPath: StoreConfiguration.path(store: store)))
        #expect(throws: ConfigurationError.self) { try StoreConfiguration.load(store: store) }
    }

    @Test func aFileWrittenBeforeSectionsKeepsItsCollectorSettings() throws {
        let store = try write(
            #"{"endpoint": "http://127.0.0.1:8787", "token_file": "/tmp/t", "source_priority": ["Phone"]}"#)
        let configuration = try StoreConfiguration.load(store: store)
        #expect(try configuration.settings(for: collector).text("endpoint") == "http://127.0.0.1:8787")
        #expect(try configuration.settings(for: collector).text("token_file") == "/tmp/t")
        #expect(configuration.sourcePriority == ["Phone"])
    }

    @Test func unknownPluginsAndKeysAreRefusedByName() throws {
        let unknownSink = try write(#"{"sinks": {"fhir": {"endpoint": "x"}}}"#)
        #expect {
            _ = try StoreConfiguration.load(store: unknownSink)
        } throws: { error in
            "\(error)".contains("sinks.fhir") && "\(error)".contains("no sink is named fhir")
        }
        let unknownKey = try write(#"{"sinks": {"collector": {"endpont": "x"}}}"#)
        #expect {
            _ = try StoreConfiguration.load(store: unknownKey)
        } throws: { error in
            "\(error)".contains("sinks.collector has no setting endpont") && "\(error)".contains("endpoint")
        }
    }

    @Test func commandLineSettingsWinAndAreSavedWhenAsked() throws {
        let store = try write(
            #"{"sinks": {"collector": {"endpoint": "https://old.example.org", "batch_samples": 100}}}"#)
        let choice = try SinkChoice.resolve(
            store: store, overrides: ["endpoint": .text("https://new.example.org")], save: false)
        #expect(try choice.settings.text("endpoint") == "https://new.example.org")
        #expect(choice.limits.samples == 100)
        #expect(
            try StoreConfiguration.load(store: store).settings(for: collector).text("endpoint")
                == "https://old.example.org")
        _ = try SinkChoice.resolve(store: store, overrides: ["endpoint": .text("https://new.example.org")], save: true)
        #expect(
            try StoreConfiguration.load(store: store).settings(for: collector).text("endpoint")
                == "https://new.example.org")
    }
}
