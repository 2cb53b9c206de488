import HealthETLCore

/// The parser's handler for `export.xml`: each element the parser reports goes to the reading
/// (`ExportXMLReading`) in one access, and the adapter takes the events it made from here.
final class ExportXMLHandler: XMLEventHandler {
    /// Not checked for exclusive access at run time: the handler is confined to its parser's
    /// thread, and nothing it calls while reading an element calls back into it.
    @exclusivity(unchecked) private var reading: ExportXMLReading

    /// - Parameters:
    ///   - readAt: the time of the read, the "now" of an export without an `ExportDate`.
    ///   - endPosition: the main file's size, when known, for the stream's progress.
    ///   - fingerprint: names the stream of an export without an `ExportDate`.
    init(hotWindowSeconds: Int64, readAt: Instant, routes: RouteResolver, endPosition: Int64?, fingerprint: String) {
        reading = ExportXMLReading(
            hotWindowSeconds: hotWindowSeconds, readAt: readAt, routes: routes, endPosition: endPosition,
            fingerprint: fingerprint)
    }

    func startElement(_ name: XMLBytes, attributes: XMLAttributes) throws {
        try reading.startElement(name, attributes: attributes)
    }

    func endElement(_ name: XMLBytes) throws {
        try reading.endElement(name)
    }

    /// Events produced since the adapter last drained them.
    var events: [SourceEvent] {
        get { reading.events }
        set { reading.events = newValue }
    }

    var warnings: [String: Int] { reading.warnings }

    var streamName: String? { reading.streamName }

    /// Set to stop the parse (with `ExportDated`) at the end of the top-level element that names
    /// the stream: a resumed read learns its stream and where the prologue ends this way.
    var stopsOnceDated: Bool {
        get { reading.stopsOnceDated }
        set { reading.stopsOnceDated = newValue }
    }

    /// Hands `body` the events of every top-level element that has ended, then drops them; those
    /// of an element still open stay for the next call. (`body` may read this handler: the
    /// events are taken out before it runs.)
    func takeCompletedEvents(_ body: (ArraySlice<SourceEvent>) throws -> Void) throws {
        try body(reading.completedEvents)
        reading.dropCompletedEvents()
    }

    func warn(_ kind: String) {
        reading.warn(kind)
    }

    /// Starts the stream if the file had no `ExportDate` before its first element (or at all).
    func ensureStream() {
        reading.ensureStream()
    }

    /// The lane of something that ends at `end`: hot within the hot window before the export date.
    func lane(ending end: Instant) -> Lane {
        reading.lane(ending: end)
    }
}
