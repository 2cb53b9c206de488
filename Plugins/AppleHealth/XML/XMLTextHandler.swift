/// An `XMLEventHandler` that also wants the text between tags (GPX `ele` and `time`, for example).
///
/// Text is a capability a handler opts into: for a plain `XMLEventHandler` the parser does not ask
/// libxml2 for text at all, which keeps the `export.xml` hot path free of it.
public protocol XMLTextHandler: XMLEventHandler {
    /// The next piece of character data of the current element, references already decoded.
    ///
    /// One run of text may arrive in several pieces; concatenate them until the next element
    /// event. Whitespace between elements arrives here too.
    func characters(_ text: XMLBytes)
}
