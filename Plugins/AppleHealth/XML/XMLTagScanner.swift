/// Follows the markup of the body as it streams to libxml2 and keeps what libxml2 sees within
/// `XMLMarkupLimits`, rewriting bytes one for one in place, so positions never move.
///
/// libxml2 checks an element's attributes for duplicates pairwise (200,000 of them take seconds),
/// and its own limits (names of 50,000 bytes, a start tag of 10 MB, depth 256) end the whole
/// parse, so an element past any of ours must never reach it whole. Where the element goes past a
/// limit (past 256 attributes, a name past 1,024 bytes, a value past 1 MiB, a start tag past
/// 4 MiB, or deeper than 64), its start tag is ended early as an empty element, with the few
/// bytes that take (`/>`, `"/>`, `=""/>`), and the rest of the tag, its content and its end tag
/// are blanked. Blanking keeps line feeds (one overwritten by an early end goes into the next
/// blanked byte), so lines still count right. An end tag past the limits is ended early too, and so
/// are a comment, processing instruction or CDATA section past 1 MiB (counted as warnings).
///
/// Each element cut down is noted as a refusal, found again by `XMLStreamParser` where libxml2
/// reports the element, which refuses it with the reason.
///
/// It runs over every byte of the body, so text and values are passed over eight bytes at a time,
/// and the state is kept between chunks. It finds where markup starts and hands it on: start and
/// end tags to `XMLElementTagScanner`, everything else to `XMLSectionScanner`; what either refuses
/// is overwritten by `XMLBlanker`.
struct XMLTagScanner {
    private enum State {
        /// Text between tags.
        case text
        /// Just after `<`.
        case tagOpen
        /// In a start or end tag, read by `tags`.
        case tag
        /// In a comment, CDATA section, processing instruction or other `<!…>`, read by `sections`.
        case section
    }

    private var state = State.text
    /// Where the tag being read starts (its `<`), in the filtered stream, and whether nothing of
    /// it was refused or blanked so far.
    private var tagStart: Int64 = 0
    private var tagIsClean = false
    /// Start tags (`<Name …>`, and `<Name …/>` for an empty element) seen whole and untouched, in
    /// the filtered stream, from their `<` to past their `>`: `XMLStreamParser` may read them
    /// without libxml2. The parser takes them after each scan.
    var cleanStartTags: [Range<Int64>] = []
    private var tags = XMLElementTagScanner()
    private var sections = XMLSectionScanner()
    private var blanker = XMLBlanker()

    /// The body starts inside the root element's name, whose first byte was already passed.
    mutating func enterStartTag() {
        tags.enterStartTag()
        state = .tag
    }

    /// The body starts inside markup that is not a start tag.
    mutating func enterOtherMarkup() {
        sections.beginDeclaration()
        state = .section
    }

    /// Comments, instructions and CDATA sections ended early, by warning kind.
    var shortenedSections: [String: Int] { sections.shortenedSections }

    /// Whether a refusal is waiting to be taken.
    var hasRefusals: Bool { blanker.hasRefusals }

    /// The reason the element whose start tag ends at `tagEnd` is refused, or `nil`. Refusals of
    /// tags before `tagEnd` (which libxml2 never reported) are dropped.
    mutating func takeRefusal(forTagEndingAt tagEnd: Int64) -> String? {
        blanker.takeRefusal(forTagEndingAt: tagEnd)
    }

    // MARK: - Scanning

    /// Scans `count` bytes at `bytes` in place; `offset` is the first one's offset in the filtered stream.
    mutating func scan(_ bytes: UnsafeMutablePointer<UInt8>, count: Int, offset: Int64) {
        var index = 0
        while index < count {
            guard blanker.isBlanking else {
                index = step(bytes, from: index, count: count, offset: offset)
                continue
            }
            let start = index
            index = step(bytes, from: index, count: count, offset: offset)
            blanker.blank(bytes, start..<index, offset: offset)
            // Only a malformed tag ends before its early end is written; libxml2 reports it.
            if !blanker.isBlanking { blanker.dropEnding() }
        }
    }

    /// Reads on from `index` in the current state and returns where it stopped.
    private mutating func step(_ bytes: UnsafeMutablePointer<UInt8>, from index: Int, count: Int, offset: Int64)
        -> Int
    {
        switch state {
        case .text:
            let end = XMLByteClass.find(bytes, from: index, count: count, XMLByteClass.lessThan)
            if end < count { state = .tagOpen }
            return min(end + 1, count)

        case .tagOpen:
            switch bytes[index] {
            case XMLByteClass.slash:
                tags.beginEndTag()
                state = .tag
            case XMLByteClass.bang:
                sections.beginMarkupDeclaration()
                state = .section
            case XMLByteClass.question:
                sections.beginInstruction()
                state = .section
            default:
                // The byte is the name's first: the tag scanner reads it.
                tags.beginStartTag(whileBlanking: blanker.isBlanking)
                tagStart = offset + Int64(index) - 1
                tagIsClean = !blanker.isBlanking
                state = .tag
                return index
            }
            return index + 1

        case .tag:
            let next = tags.step(bytes, from: index, count: count, offset: offset, blanker: &blanker)
            if blanker.isBlanking || blanker.hasRefusals { tagIsClean = false }
            if tags.hasEnded {
                state = .text
                if tagIsClean, tags.endedStartTag { cleanStartTags.append(tagStart..<(offset + Int64(next))) }
                tagIsClean = false
            }
            return next

        case .section:
            let next = sections.step(bytes, from: index, count: count, blanker: &blanker)
            if sections.hasEnded { state = .text }
            return next
        }
    }
}
