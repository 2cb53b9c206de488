/// How much markup one element may carry. Apple's elements have a dozen attributes, short names
/// and values and are nested a few levels deep; an element past any limit is hostile or corrupt.
///
/// `XMLTagScanner` enforces them on the bytes, before libxml2 sees the element: libxml2 checks an
/// element's attributes for duplicates pairwise (200,000 of them take seconds), and its own
/// limits on names, values and depth end the whole parse. `XMLStreamParser` then refuses each
/// element that was cut down, with its descendants, and reads on.
enum XMLMarkupLimits {
    static let attributesPerElement = 256
    static let depth = 64
    static let nameBytes = 1024
    static let valueBytes = 1 << 20
    /// Below libxml2's 10,000,000-byte lookup limit, which a start tag must fit in whole.
    static let startTagBytes = 4 << 20
    /// A comment, processing instruction or CDATA section: libxml2 wants each whole, too.
    static let sectionBytes = 1 << 20
}
