import HealthETLCore

/// A top-level element kept whole as JSON: its attributes and its descendants' attributes.
struct PendingDocument {
    var kind: String
    var element: String
    var attributes: [MetadataEntry]
    var children: [(element: String, attributes: [MetadataEntry])] = []
    var start: Instant?
    var end: Instant?
    var sourceName: String?

    var document: ExportDocument {
        var body = "{\"element\":\(JSONText.quoted(element)),\"attributes\":\(JSONText.pairs(attributes))"
        if !children.isEmpty {
            body += ",\"children\":["
            body += children.map {
                "{\"element\":\(JSONText.quoted($0.element)),\"attributes\":\(JSONText.pairs($0.attributes))}"
            }
            .joined(separator: ",")
            body += "]"
        }
        return ExportDocument(kind: kind, start: start, end: end, sourceName: sourceName, body: body + "}")
    }
}
