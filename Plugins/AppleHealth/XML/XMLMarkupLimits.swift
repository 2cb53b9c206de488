/// How much markup one element may carry. Apple's elements have a dozen attributes, short names
/// and values and are nested a few levels deep; an element past any limit is hostile or
/// corrupt, and `XMLStreamParser` refuses it (with its descendants) with a reason, reading on.
///
/// The attribute limit is also enforced before libxml2 sees the element (`XMLTagScanner`):
/// libxml2 checks an element's attributes for duplicates pairwise, so 200,000 of them take
/// seconds. The other limits lie below libxml2's own, which end the whole parse.
enum XMLMarkupLimits {
    static let attributesPerElement = 256
    static let depth = 64
    static let nameBytes = 1024
    static let valueBytes = 1 << 20

    /// Why an element is refused, as a warning kind, or `nil` when it is within every limit.
    static func refusal(depth: Int, nameBytes: Int, attributeCount: Int) -> String? {
        if attributeCount > attributesPerElement { return "element_with_too_many_attributes" }
        if depth > Self.depth { return "element_too_deep" }
        if nameBytes > Self.nameBytes { return "element_name_too_long" }
        return nil
    }

    static let valueTooLong = "attribute_value_too_long"
}
