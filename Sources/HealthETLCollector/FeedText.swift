import Foundation
import HealthETLCore

/// The change keys as the feed stores and sends them: one JSON array, keys sorted.
enum FeedText {
    static func encode(_ keys: [ChangeKey]) throws -> String {
        String(decoding: try JSONResponse.encoder.encode(keys), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> [ChangeKey] {
        try JSONDecoder().decode([ChangeKey].self, from: Data(text.utf8))
    }
}
