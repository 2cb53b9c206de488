/// Receives the elements of a document from `XMLStreamParser`, in document order.
///
/// The parser calls the handler on the thread that calls `feed` or `finish`. Names and values
/// point into the parser's buffers and are valid only until the method returns. An error thrown
/// here stops the parse; `feed` or `finish` rethrows it unchanged.
public protocol XMLEventHandler: AnyObject {
    /// An element starts; `attributes` are in document order with character references decoded.
    func startElement(_ name: XMLBytes, attributes: XMLAttributes) throws
    /// The element last started and not yet ended ends (also for `<Empty/>`).
    func endElement(_ name: XMLBytes) throws
}
