import CLibXML2

// MARK: - The SAX2 callback table

extension XMLStreamParser {
    /// The callbacks libxml2 calls; each finds the parser through the context's `userData`.
    ///
    /// Besides the element events, the table closes every door a DTD could open: entities resolve
    /// to nothing, and an entity declaration, a DOCTYPE or an external subset that ever reaches
    /// libxml2 (the filter drops them first) stops the parse as hostile. The structured error
    /// handler (`serror`, not variadic, unlike `error`/`fatalError`) replaces libxml2's default
    /// of printing to stderr.
    static func saxHandler(deliveringText: Bool) -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)

        sax.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            XMLStreamParser.withParser(context) {
                $0.didStartElement(localName, attributeCount: Int(attributeCount), attributes: attributes)
            }
        }
        sax.endElementNs = { context, localName, _, _ in
            guard let context, let localName else { return }
            XMLStreamParser.withParser(context) { $0.didEndElement(localName) }
        }
        if deliveringText {
            sax.characters = { context, text, count in
                guard let context, let text else { return }
                XMLStreamParser.withParser(context) { $0.didReadText(text, count: Int(count)) }
            }
            sax.ignorableWhitespace = sax.characters
            sax.cdataBlock = sax.characters
        }

        sax.getEntity = { _, _ in nil }
        sax.getParameterEntity = { _, _ in nil }
        sax.resolveEntity = { context, _, _ in
            if let context {
                XMLStreamParser.withParser(context) { $0.didSeeDeclaration("a reference to an external entity") }
            }
            return nil
        }
        sax.entityDecl = { context, _, _, _, _, _ in
            guard let context else { return }
            XMLStreamParser.withParser(context) { $0.didSeeDeclaration("an entity declaration") }
        }
        sax.unparsedEntityDecl = { context, _, _, _, _ in
            guard let context else { return }
            XMLStreamParser.withParser(context) { $0.didSeeDeclaration("an unparsed entity declaration") }
        }
        sax.internalSubset = { context, _, _, _ in
            guard let context else { return }
            XMLStreamParser.withParser(context) { $0.didSeeDeclaration("a DOCTYPE where none may be") }
        }
        sax.externalSubset = { context, _, _, _ in
            guard let context else { return }
            XMLStreamParser.withParser(context) { $0.didSeeDeclaration("a reference to an external DTD") }
        }

        sax.serror = { context, error in
            guard let context, let error else { return }
            XMLStreamParser.withParser(context) { $0.didReport(error.pointee) }
        }
        return sax
    }

    /// Runs `body` on the parser without retaining it: the parser owns the libxml2 context that
    /// calls back, so it outlives every callback. (The element and text callbacks run once per
    /// element and text; a retain and release each were about a tenth of reading a route file.)
    private static func withParser(_ context: UnsafeMutableRawPointer, _ body: (XMLStreamParser) -> Void) {
        Unmanaged<XMLStreamParser>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
    }
}
