import Foundation
import HealthETLCore
import HealthETLRuntime
import HealthETLTestSupport
import Testing

/// The registry: plugins by stable name, adapters by content probe or by name.
@Suite struct PluginRegistryTests {
    let directory = TemporaryDirectory("healthetl-registry")

    @Test func everyPluginHasAUniqueSnakeCaseNameAndASummary() {
        let plugins = PluginRegistry.descriptors
        #expect(
            plugins.map(\.name) == [
                "apple_health", "health_connect", "health_auto_export", "fit", "synthetic", "collector",
            ])
        #expect(Set(plugins.map(\.configSection)).count == plugins.count)
        for plugin in plugins {
            #expect(plugin.name.allSatisfy { $0.isLowercase || $0 == "_" }, "\(plugin.name)")
            #expect(!plugin.summary.isEmpty)
            #expect(!plugin.capabilities.isEmpty)
        }
        #expect(
            PluginRegistry.descriptor(kind: .sink, name: "collector")?.settings.map(\.key).contains("endpoint") == true)
    }

    @Test func theAdapterIsFoundByProbingTheContent() throws {
        let sample = TestPaths.repository("SampleExports/apple-health-sample.zip")
        let adapter = try PluginRegistry.adapter(for: SourceInput(path: sample))
        #expect(type(of: adapter).name == "apple_health")

        let text = directory.child("notes.txt")
        try "not an export".write(toFile: text, atomically: true, encoding: .utf8)
        #expect {
            _ = try PluginRegistry.adapter(for: SourceInput(path: text))
        } throws: { error in
            guard case .notRecognized(let path, let reasons) = error as? RegistryError else { return false }
            // Every source said why, by name.
            return path == text && reasons.contains { $0.hasPrefix("apple_health: ") }
                && reasons.contains { $0.hasPrefix("synthetic: ") }
        }
    }

    @Test func aNamedSourceMustExistAndReadFiles() throws {
        let sample = TestPaths.repository("SampleExports/apple-health-sample.zip")
        #expect(
            type(of: try PluginRegistry.adapter(for: SourceInput(path: sample), named: "apple_health")).name
                == "apple_health")
        #expect(
            throws: RegistryError.unknown(
                kind: .source, name: "fitbit",
                known: ["apple_health", "health_connect", "health_auto_export", "fit", "synthetic"])
        ) {
            _ = try PluginRegistry.adapter(for: SourceInput(path: sample), named: "fitbit")
        }
        #expect {
            _ = try PluginRegistry.adapter(for: SourceInput(path: sample), named: "synthetic")
        } throws: { error in
            guard case .readsNoFiles(let name, _) = error as? RegistryError else { return false }
            return name == "synthetic"
        }
        #expect(try PluginRegistry.sink(named: "collector").name == "collector")
        #expect(throws: RegistryError.self) { _ = try PluginRegistry.sink(named: "fhir") }
    }
}
