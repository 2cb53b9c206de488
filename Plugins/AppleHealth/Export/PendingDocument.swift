import HealthETLCore

/// A top-level element kept whole as JSON: its attributes and its descendants' attributes, up to
/// a budget. What lies past the budget is passed over as it streams by, and only counted: an
/// element of any size (an unknown one is anybody's) costs bounded memory.
struct PendingDocument {
    /// Bytes of descendants' names and attribute text a document keeps; Apple's largest real
    /// documents (audiograms, clinical records) hold a few kilobytes.
    static let childBytesBudget = 256 << 10

    var kind: String
    var element: String
    var attributes: [MetadataEntry]
    private(set) var children: [(element: String, attributes: [MetadataEntry])] = []
    /// Descendants passed over once the budget was spent.
    private(set) var omittedChildren = 0
    private var childBytes = 0
    var start: Instant?
    var end: Instant?
    var sourceName: String?

    init(kind: String, element: String, attributes: [MetadataEntry]) {
        self.kind = kind
        self.element = element
        self.attributes = attributes
    }

    /// Keeps a descendant, or counts it when the budget is spent; `false` the first time one is
    /// passed over.
    mutating func add(child name: XMLBytes, attributes: XMLAttributes) -> Bool {
        guard omittedChildren == 0 else {
            omittedChildren += 1
            return true
        }
        var size = name.bytes.count
        attributes.forEach { key, value in size += key.bytes.count + value.bytes.count }
        childBytes += size
        guard childBytes <= Self.childBytesBudget else {
            omittedChildren = 1
            return false
        }
        var entries: [MetadataEntry] = []
        attributes.forEach { key, value in entries.append(MetadataEntry(key: key.string, value: value.string)) }
        children.append((name.string, entries))
        return true
    }

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
        if omittedChildren > 0 { body += ",\"omitted_children\":\(omittedChildren)" }
        return ExportDocument(kind: kind, start: start, end: end, sourceName: sourceName, body: body + "}")
    }
}
