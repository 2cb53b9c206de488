import AppleHealth
import CollectorSink
import FIT
import HealthAutoExport
import HealthConnect
import HealthETLCore
import Synthetic

/// Every plugin this build has, by its stable snake_case name. Adding a source or a sink is its
/// folder under Plugins/ and one line here; the command line and the config file find plugins
/// only through this registry.
public enum PluginRegistry {
    public static let sources: [any SourcePlugin] = [
        AppleHealthAdapter(),
        HealthConnectAdapter(),
        HealthAutoExportAdapter(),
        FITAdapter(),
        SyntheticSource(),
    ]

    public static let sinks: [any SampleSink.Type] = [
        CollectorSink.self
    ]

    /// Sources then sinks, each in registration order.
    public static var descriptors: [PluginDescriptor] {
        sources.map { describe($0) } + sinks.map { $0.descriptor }
    }

    public static func descriptor(kind: PluginKind, name: String) -> PluginDescriptor? {
        descriptors.first { $0.kind == kind && $0.name == name }
    }

    public static func sink(named name: String) throws(RegistryError) -> any SampleSink.Type {
        guard let sink = sinks.first(where: { $0.name == name }) else {
            throw .unknown(kind: .sink, name: name, known: sinks.map { $0.name })
        }
        return sink
    }

    /// The adapter that reads `input`: the one named, or else the first whose probe recognises
    /// the content.
    public static func adapter(for input: SourceInput, named name: String? = nil) throws(RegistryError)
        -> any SourceAdapter
    {
        if let name {
            guard let source = sources.first(where: { type(of: $0).name == name }) else {
                throw .unknown(kind: .source, name: name, known: sources.map { type(of: $0).name })
            }
            guard let adapter = source as? any SourceAdapter else {
                throw .readsNoFiles(name: name, reason: reason(source, input))
            }
            if case .notRecognized(let why) = adapter.recognize(input) {
                throw .notRecognized(path: input.path, reasons: ["\(name): \(why)"])
            }
            return adapter
        }
        var reasons: [String] = []
        for source in sources {
            switch source.recognize(input) {
            case .recognized:
                if let adapter = source as? any SourceAdapter { return adapter }
            case .notRecognized(let why):
                reasons.append("\(type(of: source).name): \(why)")
            }
        }
        throw .notRecognized(path: input.path, reasons: reasons)
    }

    private static func describe<Source: SourcePlugin>(_ source: Source) -> PluginDescriptor {
        Source.descriptor
    }

    private static func reason(_ source: any SourcePlugin, _ input: SourceInput) -> String {
        if case .notRecognized(let why) = source.recognize(input) { return why }
        return "it reads no files"
    }
}
