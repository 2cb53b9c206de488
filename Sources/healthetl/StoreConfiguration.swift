import Foundation
import HealthETLStore

/// `config.json` in the store: what the nightly run needs, so it is just `healthetl upload`.
/// Options on the command line win over it; `--save-config` writes them into it.
struct StoreConfiguration: Codable, Equatable {
    var endpoint: String?
    var tokenFile: String?
    var allowInsecureHTTP: Bool?
    /// Samples per uploaded batch, and the byte budget of one batch's JSON.
    var batchSamples: Int?
    var batchBytes: Int?
    /// Source names that outrank the default order (manual, watch, phone, other) in projections.
    var sourcePriority: [String]?

    private enum CodingKeys: String, CodingKey {
        case endpoint
        case tokenFile = "token_file"
        case allowInsecureHTTP = "allow_insecure_http"
        case batchSamples = "batch_samples"
        case batchBytes = "batch_bytes"
        case sourcePriority = "source_priority"
    }

    static func path(store: String) -> String { store + "/config.json" }

    /// The store's configuration; none yet is an empty one.
    static func load(store: String) throws -> StoreConfiguration {
        let path = path(store: store)
        guard let data = FileManager.default.contents(atPath: path) else { return StoreConfiguration() }
        do {
            return try JSONDecoder().decode(StoreConfiguration.self, from: data)
        } catch {
            throw CommandFailure("\(path) is not a valid configuration (\(error)); fix or remove it")
        }
    }

    /// Writes it private (0600), replacing the old file in one rename.
    func save(store: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let path = Self.path(store: store)
        let temporary = path + ".partial"
        guard FileManager.default.createFile(atPath: temporary, contents: try encoder.encode(self), attributes: [.posixPermissions: 0o600])
        else { throw CommandFailure("cannot write \(temporary); check the store directory's permissions") }
        guard rename(temporary, path) == 0 else { throw CommandFailure("cannot replace \(path)") }
    }
}
