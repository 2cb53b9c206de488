import Foundation
import HealthETLCore

/// The change keys as the feed stores and sends them: one JSON array, keys sorted.
package enum FeedText {
    package static func encode(_ keys: [ChangeKey]) throws -> String {
        String(decoding: try ResponseJSON.encoder.encode(keys), as: UTF8.self)
    }

    package static func decode(_ text: String) throws -> [ChangeKey] {
        try JSONDecoder().decode([ChangeKey].self, from: Data(text.utf8))
    }
}
