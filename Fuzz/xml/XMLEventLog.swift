import AppleHealth

/// Everything `XMLStreamParser` reports of one document, written down as bytes: each element's
/// start with its attributes, each end, and (for `XMLTextEventLog`) the text between them, so two
/// readings of the same document can be compared byte for byte.
class XMLEventLog: XMLEventHandler {
    /// The outcome of one reading of a document.
    struct Reading: Equatable {
        var succeeded: Bool
        var log: [UInt8]
        var warnings: [String: Int]
        var consumedOffset: Int64
    }

    fileprivate(set) var log: [UInt8] = []
    /// Whether the last thing logged was text, so pieces of one run of text join up.
    var inText = false

    required init() {}

    /// Reads `chunks` as one document, start to end; `readingTagsDirectly: false` leaves every
    /// element to libxml2.
    static func read(_ chunks: some Sequence<UnsafeRawBufferPointer>, readingTagsDirectly: Bool = true) -> Reading {
        let handler = Self()
        let parser = XMLStreamParser(handler: handler, readingTagsDirectly: readingTagsDirectly)
        var succeeded = true
        do {
            for chunk in chunks { try parser.feed(chunk) }
            try parser.finish()
        } catch {
            succeeded = false
        }
        return Reading(
            succeeded: succeeded, log: handler.log, warnings: parser.warnings, consumedOffset: parser.consumedOffset)
    }

    func startElement(_ name: XMLBytes, attributes: XMLAttributes) throws {
        inText = false
        log.append(UInt8(ascii: "<"))
        log.append(contentsOf: name.bytes)
        attributes.forEach { name, value in
            log.append(UInt8(ascii: " "))
            log.append(contentsOf: name.bytes)
            log.append(UInt8(ascii: "="))
            log.append(contentsOf: value.bytes)
            log.append(0)
        }
        log.append(UInt8(ascii: ">"))
    }

    func endElement(_ name: XMLBytes) throws {
        inText = false
        log.append(contentsOf: "</".utf8)
        log.append(contentsOf: name.bytes)
        log.append(UInt8(ascii: ">"))
    }

    fileprivate func appendText(_ text: XMLBytes) {
        if !inText { log.append(UInt8(ascii: "|")) }
        inText = true
        log.append(contentsOf: text.bytes)
    }
}

/// An `XMLEventLog` that also takes the text between tags, as the GPX reader does: libxml2 then
/// runs its text callbacks, which the `export.xml` path leaves off.
final class XMLTextEventLog: XMLEventLog, XMLTextHandler {
    func characters(_ text: XMLBytes) {
        appendText(text)
    }
}
