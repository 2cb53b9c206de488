import CLibXML2

// MARK: - Errors libxml2 reports

extension XMLStreamError {
    /// The error for libxml2 error `code`, with libxml2's own text as `detail`.
    ///
    /// - Parameter cutShort: the error came while ending a document whose root was still open,
    ///   so it is the end of the data that is missing, whatever libxml2 calls it.
    init(libxml2Code code: Int32, detail: String, cutShort: Bool, line: Int, column: Int, byteOffset: Int64) {
        let kind = Self.kind(ofLibXML2Code: code, cutShort: cutShort)
        let advice: String
        switch kind {
        case .truncated:
            advice =
                "The export ends in the middle of the document: the file was cut short (an interrupted "
                + "export, copy or download). Records before the cut can be imported; copy or export the "
                + "file again to get the rest."
        case .encoding:
            advice =
                "The export contains bytes that are not valid UTF-8, or characters XML does not allow, "
                + "and cannot be read past this point. The file is damaged: export it again from the "
                + "Health app."
        case .hostile:
            advice =
                "The export uses entities, which Apple Health exports never do; the file was crafted or "
                + "damaged and is not read. Export the data again from the Health app."
        case .malformed where Self.undeclaredEntityCodes.contains(code):
            advice =
                "The export refers to an entity Apple Health never writes and cannot be read past this "
                + "point; the file was crafted or damaged. Export the data again from the Health app."
        case .malformed:
            advice =
                "The export is not well-formed XML and cannot be read past this point. The file is "
                + "damaged or was edited: export it again from the Health app."
        }
        self.init(
            kind: kind, message: "\(advice) (libxml2: \(detail))", line: line, column: column,
            byteOffset: byteOffset)
    }

    private static func kind(ofLibXML2Code code: Int32, cutShort: Bool) -> Kind {
        if code == Int32(XML_ERR_TAG_NAME_MISMATCH.rawValue) { return .malformed }
        if cutShort { return .truncated }
        if encodingCodes.contains(code) { return .encoding }
        if entityCodes.contains(code) { return .hostile }
        return .malformed
    }

    private static let encodingCodes: Set<Int32> = codes(
        XML_ERR_INVALID_CHAR, XML_ERR_UNKNOWN_ENCODING, XML_ERR_UNSUPPORTED_ENCODING, XML_ERR_ENCODING_NAME,
        XML_ERR_INVALID_ENCODING)

    /// Errors only entity declarations can cause; the filter should never let one get this far.
    private static let entityCodes: Set<Int32> = codes(
        XML_ERR_UNPARSED_ENTITY, XML_ERR_ENTITY_IS_EXTERNAL, XML_ERR_ENTITY_IS_PARAMETER, XML_ERR_ENTITY_LOOP,
        XML_ERR_ENTITY_PROCESSING)

    private static let undeclaredEntityCodes: Set<Int32> = codes(
        XML_ERR_UNDECLARED_ENTITY, XML_WAR_UNDECLARED_ENTITY)

    private static func codes(_ errors: xmlParserErrors...) -> Set<Int32> {
        Set(errors.map { Int32($0.rawValue) })
    }
}
