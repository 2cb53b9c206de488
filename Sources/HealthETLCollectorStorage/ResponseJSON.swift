import Foundation

/// The one JSON encoding of the collector's answers: sorted keys, so a stored answer replays
/// byte for byte whichever engine stored it.
package enum ResponseJSON {
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
