import HealthETLCore

@testable import HealthAutoExport

/// What `HAEPayloadReader` makes of one text: the items it handed on, its warnings, and the kind
/// of error that ended it, if any (the error's byte offset is the tokenizer's position when the
/// document reader refused, which legitimately depends on chunk boundaries, so it is left out).
struct HAEReading: Equatable {
    var items: [HAEItem] = []
    var warnings: [String: Int] = [:]
    var failure: String?

    /// Reads `chunks` as one Health Auto Export text, start to end.
    init(_ chunks: some Sequence<UnsafeRawBufferPointer>, catalog: MetricCatalog) {
        let reader = HAEPayloadReader(catalog: catalog)
        var items: [HAEItem] = []
        do {
            for chunk in chunks { try reader.feed(chunk) { items.append($0) } }
            try reader.finish { items.append($0) }
        } catch let error as JSONStreamError {
            failure = "JSONStreamError.\(error.kind)"
        } catch {
            failure = "\(type(of: error))"
        }
        self.items = items
        warnings = reader.warnings
    }
}
