import CLibXML2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A streaming XML reader on libxml2's SAX2 push parser, hardened for files from strangers.
///
/// Feed the document in chunks of any size (1 byte works); the handler sees each start and end
/// tag as libxml2 parses it, with names and values pointing into libxml2's buffers, so memory
/// stays constant however large the document is. On the way in, `XMLByteFilter` drops the
/// DOCTYPE (refusing one that declares entities or an external DTD) and blanks illegal control
/// characters. libxml2 runs without entity substitution, DTD loading or network access.
///
/// Input is expected in UTF-8, as Apple writes it; bytes that are not valid UTF-8 end the parse
/// with an `.encoding` error.
///
/// The parser is confined to the thread that uses it; it is not `Sendable`.
///
/// ```swift
/// let parser = XMLStreamParser(handler: handler)
/// while let chunk = try next() { try chunk.withUnsafeBytes { try parser.feed($0) } }
/// try parser.finish()
/// ```
public final class XMLStreamParser {
    /// What libxml2 reported, in the filtered stream's coordinates.
    struct LibXML2Problem {
        var code: Int32
        var message: String
        var line: Int
        var column: Int
        var filteredOffset: Int64
    }

    /// The most input handed to libxml2 in one `xmlParseChunk` call, whatever the caller's chunk size.
    private static let sliceSize = 256 * 1024

    private let handler: any XMLEventHandler
    private let textHandler: (any XMLTextHandler)?
    private let context: xmlParserCtxtPtr
    private var filter = XMLByteFilter()
    /// The filtered bytes of the current slice, on their way to libxml2.
    private let filtered: UnsafeMutablePointer<UInt8>
    /// The current start tag's attributes, reused from tag to tag.
    private var attributeSpans: UnsafeMutableBufferPointer<XMLAttributes.Span>
    /// Decoded attribute values of the current start tag (only values containing `&`).
    private var decodedValues: UnsafeMutableBufferPointer<UInt8>
    /// Whether start tags may be read without libxml2 (`XMLTagReader`): not when text is
    /// delivered, since libxml2 sees spaces where such a tag's attributes or element were.
    private let readsTagsDirectly: Bool
    /// The clean start tags of the current slice, from the filter.
    private var cleanStartTags: [Range<Int64>] = []
    /// Start tags read directly that libxml2 has yet to reach. Each was left to it as a stand-in,
    /// its name with its attributes cut out (`<Record>`), so that libxml2 still matches
    /// the element's end tag and reads its content; it reports the stand-in's start, which is
    /// not delivered again. libxml2 reaches them in order, before any other start tag.
    @exclusivity(unchecked) private var standInsAhead = 0
    /// Whether the bytes libxml2 was given but has not parsed yet (text waits for the next `<`)
    /// are whitespace only. Anything else (a stray byte, a reference) may still end the parse
    /// with an error before the next element, so that element is left to libxml2.
    private var heldIsWhitespace = false
    /// Line breaks in those held bytes, as libxml2 counts them.
    private var heldLineBreaks = 0
    /// Bytes cut out of what libxml2 was given (`parse`): its offsets plus these are the filtered
    /// stream's. Every cut lies before what libxml2 reads next when it reports a position: an
    /// element is cut only once libxml2 has read everything before it but whitespace.
    private var cutBytes: Int64 = 0
    /// Whether libxml2 was given the bytes before the first clean start tag on their own (`parse`).
    private var prologGiven = false
    /// Columns libxml2 counts too many (negative: too few) on the line of the last element read
    /// without it: the characters cut out of that line. Subtracted from the column of an error
    /// libxml2 reports on that line. (Only that line matters: what libxml2 has not read yet comes
    /// after it, and every earlier line holds only whitespace and cut elements.)
    private var columnExcess = (line: 0, columns: 0)

    // The state every element passes through is not checked for exclusive access at run time:
    // the parser is confined to one thread, and `feed` refuses to be entered from a callback, so
    // no two accesses overlap.
    @exclusivity(unchecked) private var depth = 0
    /// The depth of the element being refused (it and its descendants reach no handler), or 0.
    @exclusivity(unchecked) private var refusedDepth = 0
    @exclusivity(unchecked) private var rootClosed = false
    /// An error raised inside a callback (the handler's, or a hostile declaration); libxml2 was stopped.
    @exclusivity(unchecked) private var callbackError: (any Error)?
    /// The first error libxml2 reported through the structured error handler.
    private var libxml2Problem: LibXML2Problem?
    /// The error that ended the parse; every later call throws it again.
    private var failure: (any Error)?
    private var finished = false
    private var insideLibXML2 = false
    @exclusivity(unchecked) private var consumedHighWater: Int64 = 0
    /// Offset in the original input just past the last element that ended as a child of the root.
    @exclusivity(unchecked) public private(set) var topLevelEnd: Int64 = 0

    /// Empty elements delivered without libxml2 (`XMLTagReader`).
    @exclusivity(unchecked) public private(set) var elementsReadDirectly = 0
    /// Start tags of elements with content delivered without libxml2 (`XMLTagReader`).
    @exclusivity(unchecked) public private(set) var startTagsReadDirectly = 0

    /// Problems that lost nothing, by kind, e.g. ["illegal_control_character": 3].
    public private(set) var warnings: [String: Int] = [:]

    /// Creates a parser that reports to `handler`, which it keeps a strong reference to.
    ///
    /// A handler that also conforms to `XMLTextHandler` receives text; any other does not, and
    /// libxml2 then skips text without delivering it. `readingTagsDirectly: false` gives every
    /// element to libxml2: the reference the direct reader is held to.
    public init(handler: XMLEventHandler, readingTagsDirectly: Bool = true) {
        self.handler = handler
        self.textHandler = handler as? any XMLTextHandler
        self.readsTagsDirectly = readingTagsDirectly && textHandler == nil
        xmlInitParser()
        var sax = Self.saxHandler(deliveringText: textHandler != nil)
        // With no user data libxml2 points userData at the context; it is replaced below.
        guard let context = xmlCreatePushParserCtxt(&sax, nil, nil, 0, nil) else {
            fatalError("libxml2 could not allocate a parser context (out of memory)")
        }
        self.context = context
        // NONET only; never NOENT (substitutes entities, reads files), DTDLOAD/DTDATTR/DTDVALID
        // (fetch and apply a DTD) or HUGE (lifts the limits that stop amplification).
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        // The same settings again, in case a process-wide libxml2 default turned one on.
        context.pointee.replaceEntities = 0
        context.pointee.loadsubset = 0
        context.pointee.validate = 0
        context.pointee.recovery = 0
        filtered = .allocate(capacity: Self.sliceSize + XMLByteFilter.outputSlack)
        attributeSpans = .allocate(capacity: 16)
        decodedValues = .allocate(capacity: 1024)
        context.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        xmlFreeParserCtxt(context)
        filtered.deallocate()
        attributeSpans.deallocate()
        decodedValues.deallocate()
    }

    // MARK: - Feeding

    /// Feeds the next chunk of the document. Throws XMLStreamError, or rethrows what the handler threw.
    ///
    /// After an error the parser is done: every later `feed` or `finish` throws the same error.
    public func feed(_ chunk: UnsafeRawBufferPointer) throws {
        try checkUsable()
        var start = 0
        while start < chunk.count {
            let end = min(chunk.count, start + Self.sliceSize)
            try failingPermanently {
                let count = try filter.filter(
                    UnsafeRawBufferPointer(rebasing: chunk[start..<end]), into: filtered)
                noteFilterWarnings()
                try parse(count: count, terminate: false)
            }
            start = end
        }
    }

    /// Ends the document; throws .truncated if elements are still open or nothing was parsed.
    public func finish() throws {
        try checkUsable()
        try failingPermanently {
            guard filter.inputOffset > 0 else {
                throw truncation(
                    "The export is empty. Check that the right file was given, or export it again from the "
                        + "Health app.", line: 1)
            }
            if filter.isInDoctype {
                throw truncation(
                    "The export ends inside its DOCTYPE, before any record: the file was cut short (an "
                        + "interrupted export, copy or download). Copy or export it again.", line: line)
            }
            let held = filter.finish(into: filtered)
            if held > 0 { try parse(count: held, terminate: false) }
            try parse(count: 0, terminate: true)
            guard rootClosed else {
                throw truncation(
                    "The export ends before its root element is closed (\(depth) elements still open): the "
                        + "file was cut short. Records before the cut can be imported; copy or export the "
                        + "file again to get the rest.", line: line)
            }
        }
        finished = true
        consumedHighWater = filter.inputOffset
    }

    /// Passes over `length` bytes of input (holding `newlines` line feeds) without parsing them:
    /// a resumed read jumping from the end of one top-level element to the end of a later one.
    /// Positions reported afterwards are the original input's.
    public func skip(_ length: Int64, newlines: Int) {
        filter.skip(length, newlines: newlines)
    }

    // MARK: - Position

    /// Byte offset in the original input up to which the parser has consumed (monotonic); used as
    /// an import cursor.
    ///
    /// Inside `endElement` it is the offset just past the element's end tag (`</Record>` or `/>`);
    /// inside `startElement` it lies within the start tag. After `finish` it is the input's length.
    public var consumedOffset: Int64 {
        noteConsumed()
        return consumedHighWater
    }

    /// The 1-based line in the original input libxml2 has reached.
    public var line: Int {
        guard let input = context.pointee.input else { return 1 }
        let filteredOffset = filteredConsumed
        let position = filter.originalPosition(
            line: Int(input.pointee.line), column: 1, filteredOffset: filteredOffset)
        return position.line
    }

    // MARK: - Driving libxml2

    private func checkUsable() throws {
        if let failure { throw failure }
        precondition(!finished, "XMLStreamParser used after finish()")
        precondition(!insideLibXML2, "XMLStreamParser fed from inside one of its own callbacks")
    }

    private func failingPermanently(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            failure = error
            throw error
        }
    }

    /// Parses the `count` filtered bytes of the current slice. Start tags the reader takes are
    /// delivered here, each once libxml2 has read everything before it (a run of them, with only
    /// whitespace between, needs no call in between), and then cut out of what libxml2 is given:
    /// an empty element whole, a start tag from the end of its name to its `>`, which stay as its
    /// stand-in. A cut keeps its line breaks, so libxml2's lines stay the input's; its offsets
    /// are the filtered stream's less `cutBytes`, and its columns on the line a cut ends are
    /// that many characters short (`columnExcess`).
    private func parse(count: Int, terminate: Bool) throws {
        // libxml2's offset of `filtered[0]`.
        let sliceStart = filter.outputOffset - Int64(count) - cutBytes
        let base = filter.outputOffset - Int64(count)
        // libxml2 is given `filtered[..<kept]` (cuts removed), in calls from `fed` on; the bytes
        // from `read` on are still where the filter put them.
        var fed = 0
        var kept = 0
        var read = 0
        func keep(upTo end: Int) {
            if kept != read { memmove(filtered + kept, filtered + read, end - read) }
            kept += end - read
            read = end
        }
        // Taken in either mode: left to pile up, one per start tag, they cost memory all through
        // a long route file.
        cleanStartTags.removeAll(keepingCapacity: true)
        if count > 0 { filter.takeCleanStartTags(into: &cleanStartTags) }
        let inSlice = cleanStartTags.drop { $0.lowerBound < base }.prefix { $0.upperBound <= base + Int64(count) }
        // Bytes from `fed` to `clean` are known to be whitespace (or cut), with `unfedLineBreaks`
        // line breaks.
        var clean = 0
        // The prolog goes to libxml2 on its own, whether start tags are read directly or not: a
        // document in another encoding is converted by libxml2, which reads it differently in
        // different pieces, so both ways must give it the same pieces. Such a document is then
        // given the rest of each slice at once.
        if !prologGiven, let first = inSlice.first {
            prologGiven = true
            clean = Int(first.lowerBound - base)
            keep(upTo: clean)
            try parseChunk(from: fed, to: kept, terminate: false, sliceStart: sliceStart)
            fed = kept
        }
        if readsTagsDirectly, count > 0 {
            var unfedLineBreaks = 0
            for element in inSlice {
                guard readsUTF8AsIs else { break }
                let start = Int(element.lowerBound - base)
                let end = Int(element.upperBound - base)
                if let breaks = Self.whitespaceLineBreaks(filtered + clean, count: start - clean) {
                    unfedLineBreaks += breaks
                } else {
                    keep(upTo: start)
                    try parseChunk(from: fed, to: kept, terminate: false, sliceStart: sliceStart)
                    fed = kept
                    unfedLineBreaks = 0
                }
                clean = start
                // libxml2 has read everything up to here that could give an event or an error; the
                // element is inside the root and not inside a refused one. (Read after libxml2's
                // callbacks, which reuse the spans.)
                guard heldIsWhitespace, depth > 0, refusedDepth == 0, !rootClosed, readsUTF8AsIs,
                    let tag = XMLTagReader.read(
                        UnsafeBufferPointer(start: filtered + start, count: end - start), into: attributeSpans)
                else { continue }
                // An element with content keeps its name and `>` for libxml2: from the end of the
                // name, not of `<`.
                let cutStart = tag.isEmpty ? start : start + 1 + tag.name.count
                let cutEnd = tag.isEmpty ? end : end - 1
                if tag.isEmpty {
                    readEmptyElement(tag.name, attributes: tag.attributes, endingAt: element.upperBound)
                } else {
                    readStartTag(tag.name, attributes: tag.attributes)
                }
                if let callbackError { throw callbackError }
                let line = Int(context.pointee.input?.pointee.line ?? 0) + heldLineBreaks + unfedLineBreaks
                let (breaks, characters) = Self.lineBreaks(in: filtered + cutStart, count: cutEnd - cutStart, of: tag)
                keep(upTo: cutStart)
                memset(filtered + kept, Int32(XMLByteClass.lineFeed), breaks)
                kept += breaks
                read = cutEnd
                cutBytes += Int64(cutEnd - cutStart - breaks)
                unfedLineBreaks += breaks
                noteColumnExcess(-characters, onLine: line + breaks)
                clean = end
            }
        }
        keep(upTo: count)
        try parseChunk(from: fed, to: kept, terminate: terminate, sliceStart: sliceStart)
    }

    /// The line breaks in `count` bytes of `tag` as libxml2 counts them (`\r\n` is one), and the
    /// characters after the last one: cut out, they are columns libxml2 no longer counts. What the
    /// tag reader noted spares a search: without a line break the bytes are one line, of as many
    /// characters as bytes that are not continuation bytes (all of them within the cut).
    private static func lineBreaks(in bytes: UnsafeMutablePointer<UInt8>, count: Int, of tag: XMLTagReader.Tag) -> (
        lineBreaks: Int, characters: Int
    ) {
        guard tag.hasLineBreak else { return (0, count - tag.continuationBytes) }
        var lineBreaks = 0
        var characters = 0
        for index in 0..<count {
            let byte = bytes[index]
            if byte == XMLByteClass.lineFeed || byte == XMLByteClass.carriageReturn {
                if endsLine(bytes, at: index, count: count) {
                    lineBreaks += 1
                    characters = 0
                }
                continue
            }
            if byte & 0xC0 != 0x80 { characters += 1 }
        }
        return (lineBreaks, characters)
    }

    /// Whether the byte at `index` ends a line as libxml2 counts lines: a `\n`, or a `\r` not
    /// followed by one (`\r\n` ends one line, at its `\n`).
    private static func endsLine(_ bytes: UnsafeMutablePointer<UInt8>, at index: Int, count: Int) -> Bool {
        bytes[index] == XMLByteClass.lineFeed
            || (bytes[index] == XMLByteClass.carriageReturn
                && (index + 1 == count || bytes[index + 1] != XMLByteClass.lineFeed))
    }

    /// The line breaks in `count` bytes of whitespace as libxml2 counts them (`\r\n` is one),
    /// or nil when one is not whitespace or the last is `\r` (whose `\n` may come next).
    private static func whitespaceLineBreaks(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Int? {
        var lineBreaks = 0
        for index in 0..<max(count, 0) {
            let byte = bytes[index]
            guard XMLByteClass.isWhitespace(byte) else { return nil }
            // A last `\r` may yet be the first half of `\r\n`.
            if byte == XMLByteClass.carriageReturn, index + 1 == count { return nil }
            if endsLine(bytes, at: index, count: count) { lineBreaks += 1 }
        }
        return lineBreaks
    }

    private func noteColumnExcess(_ columns: Int, onLine line: Int) {
        columnExcess = (line, columnExcess.line == line ? columnExcess.columns + columns : columns)
    }

    /// Whether libxml2 reads the bytes as they are: a document declaring another encoding is
    /// converted to UTF-8 before its values reach the handler.
    private var readsUTF8AsIs: Bool {
        context.pointee.input?.pointee.buf?.pointee.encoder == nil
    }

    /// Hands `start..<end` of the slice (whose first byte is at `sliceStart` in what libxml2 is
    /// given) to libxml2, then notes whether what it holds back unparsed is whitespace.
    private func parseChunk(from start: Int, to end: Int, terminate: Bool, sliceStart: Int64) throws {
        let count = end - start
        defer {
            if readsTagsDirectly {
                let held = Int64(xmlByteConsumed(context)) - sliceStart
                let breaks =
                    held >= 0 && held <= end
                    ? Self.whitespaceLineBreaks(filtered + Int(held), count: end - Int(held)) : nil
                heldIsWhitespace = breaks != nil
                heldLineBreaks = breaks ?? 0
            }
        }
        insideLibXML2 = true
        let status = (filtered + start).withMemoryRebound(to: CChar.self, capacity: max(count, 1)) {
            xmlParseChunk(context, count > 0 ? $0 : nil, Int32(count), terminate ? 1 : 0)
        }
        insideLibXML2 = false
        noteConsumed()
        if let callbackError { throw callbackError }
        guard status != 0 else { return }
        throw streamError(for: libxml2Problem ?? lastContextProblem(code: status), atEnd: terminate)
    }

    /// The error for a problem libxml2 reported, in the original input's coordinates.
    private func streamError(for problem: LibXML2Problem, atEnd: Bool) -> XMLStreamError {
        // Elements read without libxml2 earlier on the line were cut out: columns libxml2 did not count.
        let excess = columnExcess.line == problem.line ? columnExcess.columns : 0
        let column = problem.column > excess ? problem.column - excess : problem.column
        let position = filter.originalPosition(
            line: problem.line, column: column, filteredOffset: problem.filteredOffset)
        return XMLStreamError(
            libxml2Code: problem.code, detail: problem.message, cutShort: atEnd && !rootClosed,
            line: position.line, column: position.column,
            byteOffset: filter.originalOffset(ofFiltered: problem.filteredOffset))
    }

    /// libxml2's last error on this context, for a failure the structured handler did not see.
    private func lastContextProblem(code: Int32) -> LibXML2Problem {
        let consumed = filteredConsumed
        guard let error = xmlCtxtGetLastError(UnsafeMutableRawPointer(context)), error.pointee.code != 0
        else {
            let line = Int(context.pointee.input?.pointee.line ?? 0)
            return LibXML2Problem(
                code: code, message: "error \(code)", line: line, column: 0, filteredOffset: consumed)
        }
        return Self.problem(from: error.pointee, filteredOffset: consumed)
    }

    private func truncation(_ message: String, line: Int) -> XMLStreamError {
        XMLStreamError(
            kind: .truncated, message: message, line: line, column: 0, byteOffset: filter.inputOffset)
    }

    private func noteConsumed() {
        guard xmlByteConsumed(context) >= 0 else { return }
        // Read before `filter` is: while its access is open, the whole filter would be copied.
        let consumed = filteredConsumed
        consumedHighWater = max(consumedHighWater, filter.originalOffset(ofFiltered: consumed))
    }

    /// How far libxml2 has read, in the filtered stream.
    private var filteredConsumed: Int64 {
        Int64(max(0, xmlByteConsumed(context))) + cutBytes
    }

    private func noteFilterWarnings() {
        let replaced = filter.illegalControlCharacters
        if replaced > 0 { warnings["illegal_control_character"] = replaced }
        for (kind, count) in filter.shortenedSections { warnings[kind] = count }
    }

    static func problem(from error: xmlError, filteredOffset: Int64) -> LibXML2Problem {
        let text = error.message.map { String(cString: $0) } ?? "error \(error.code)"
        let message = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return LibXML2Problem(
            code: error.code, message: message, line: Int(error.line), column: Int(error.int2),
            filteredOffset: filteredOffset)
    }

    // MARK: - SAX events (called by the handlers in XMLStreamParser+SAX.swift)

    func didStartElement(
        _ localName: UnsafePointer<UInt8>, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    ) {
        guard callbackError == nil else { return }
        // A stand-in: its start was delivered when it was read.
        if standInsAhead > 0 {
            standInsAhead -= 1
            return
        }
        depth += 1
        guard refusedDepth == 0 else { return }
        // libxml2 stands at the end of the start tag, where the filter noted any refusal.
        if filter.hasRefusals, let reason = filter.refusal(forTagEndingAt: filteredConsumed) {
            refusedDepth = depth
            warnings[reason, default: 0] += 1
            return
        }
        deliverStart(Self.bytes(localName), spans: collectAttributes(count: attributeCount, from: attributes))
    }

    private func deliverStart(_ name: XMLBytes, spans: UnsafeBufferPointer<XMLAttributes.Span>) {
        do {
            try handler.startElement(name, attributes: XMLAttributes(spans))
        } catch {
            stop(with: error)
        }
    }

    func didEndElement(_ localName: UnsafePointer<UInt8>) {
        deliverEnd(Self.bytes(localName))
    }

    /// An empty element read without libxml2 (its attributes in `attributeSpans`), delivered as
    /// libxml2 would: its start, then its end with the position past its `/>`.
    private func readEmptyElement(_ name: UnsafeBufferPointer<UInt8>, attributes count: Int, endingAt end: Int64) {
        depth += 1
        elementsReadDirectly += 1
        decodeValues(of: count)
        deliverStart(XMLBytes(name), spans: UnsafeBufferPointer(rebasing: attributeSpans[0..<count]))
        consumedHighWater = max(consumedHighWater, filter.originalOffset(ofFiltered: end))
        deliverEnd(XMLBytes(name))
    }

    /// A start tag read without libxml2 (its attributes in `attributeSpans`), delivered as
    /// libxml2 would; libxml2 reads its stand-in, the element's content and its end tag.
    private func readStartTag(_ name: UnsafeBufferPointer<UInt8>, attributes count: Int) {
        depth += 1
        startTagsReadDirectly += 1
        standInsAhead += 1
        decodeValues(of: count)
        deliverStart(XMLBytes(name), spans: UnsafeBufferPointer(rebasing: attributeSpans[0..<count]))
    }

    private func deliverEnd(_ name: XMLBytes) {
        guard callbackError == nil else { return }
        depth -= 1
        if depth == 0 { rootClosed = true }
        if depth == 1 { topLevelEnd = consumedOffset }
        if refusedDepth > 0 {
            if depth < refusedDepth { refusedDepth = 0 }
            return
        }
        do {
            try handler.endElement(name)
        } catch {
            stop(with: error)
        }
    }

    func didReadText(_ text: UnsafePointer<UInt8>, count: Int) {
        guard callbackError == nil, refusedDepth == 0 else { return }
        textHandler?.characters(XMLBytes(UnsafeBufferPointer(start: text, count: count)))
    }

    /// A DTD construct reached libxml2 although the filter should have dropped it: refuse the file.
    func didSeeDeclaration(_ what: String) {
        guard callbackError == nil else { return }
        let line = Int(context.pointee.input?.pointee.line ?? 0)
        let consumed = filteredConsumed
        let position = filter.originalPosition(line: line, column: 0, filteredOffset: consumed)
        stop(
            with: XMLStreamError(
                kind: .hostile,
                message: "The export contains \(what), which Apple Health exports never do; the file was "
                    + "crafted or damaged and is not read. Export the data again from the Health app.",
                line: position.line, column: 0, byteOffset: filter.originalOffset(ofFiltered: consumed)))
    }

    /// libxml2's structured error report: the first error is kept, warnings are counted.
    func didReport(_ error: xmlError) {
        if error.level == XML_ERR_WARNING {
            warnings["xml_warning", default: 0] += 1
        } else if error.level == XML_ERR_ERROR, error.domain == Int32(XML_FROM_NAMESPACE.rawValue) {
            // An undeclared prefix: the element is still delivered, by its local name.
            warnings["xml_namespace_error", default: 0] += 1
        } else if libxml2Problem == nil, error.level == XML_ERR_ERROR || error.level == XML_ERR_FATAL {
            libxml2Problem = Self.problem(
                from: error, filteredOffset: filteredConsumed)
        }
    }

    private func stop(with error: any Error) {
        callbackError = error
        xmlStopParser(context)
    }

    // MARK: - Attributes

    /// Spans for libxml2's attribute array (5 pointers each: local name, prefix, URI, value,
    /// end of value), with values that contain `&` decoded into `decodedValues`.
    private func collectAttributes(
        count: Int, from attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    ) -> UnsafeBufferPointer<XMLAttributes.Span> {
        guard count > 0, let attributes else { return UnsafeBufferPointer(start: nil, count: 0) }
        if attributeSpans.count < count {
            attributeSpans.deallocate()
            attributeSpans = .allocate(capacity: max(count, 2 * attributeSpans.count))
        }
        var filled = 0
        for index in 0..<count {
            let fields = attributes + 5 * index
            guard let name = fields[0], let value = fields[3], let end = fields[4] else { continue }
            let span = XMLAttributes.Span(
                name: Self.bytes(name).bytes, value: UnsafeBufferPointer(start: value, count: end - value),
                hasReference: memchr(value, Int32(XMLByteClass.ampersand), end - value) != nil)
            attributeSpans[filled] = span
            filled += 1
        }
        decodeValues(of: filled)
        return UnsafeBufferPointer(rebasing: attributeSpans[0..<filled])
    }

    /// Replaces the first `count` values that hold a reference by their decoded form, for
    /// libxml2's attributes and the directly read ones alike; the buffer is sized first so no
    /// value written earlier moves.
    private func decodeValues(of count: Int) {
        var bytes = 0
        for index in 0..<count where attributeSpans[index].hasReference {
            bytes += attributeSpans[index].value.count
        }
        guard bytes > 0 else { return }
        if decodedValues.count < bytes {
            decodedValues.deallocate()
            decodedValues = .allocate(capacity: max(bytes, 2 * decodedValues.count))
        }
        var used = 0
        for index in 0..<count where attributeSpans[index].hasReference {
            let start = decodedValues.baseAddress! + used
            let length = XMLReferenceDecoder.decode(attributeSpans[index].value, into: start)
            attributeSpans[index].value = UnsafeBufferPointer(start: start, count: length)
            attributeSpans[index].hasReference = false
            used += length
        }
    }

    private static func bytes(_ cString: UnsafePointer<UInt8>) -> XMLBytes {
        XMLBytes(UnsafeBufferPointer(start: cString, count: strlen(cString)))
    }
}

/// The parser and its libxml2 context belong to one thread at a time.
@available(*, unavailable)
extension XMLStreamParser: Sendable {}
