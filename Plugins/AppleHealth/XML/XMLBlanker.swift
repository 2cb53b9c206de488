/// Overwrites, one byte for one, what `XMLTagScanner` refuses: first with the few bytes that end the
/// refused markup early (`/>`, `"/>`, `=""/>`, `>`, `-->`, `]]>`, `?>`), then with spaces.
///
/// Line feeds are kept (one overwritten by an early end goes into the next blanked byte), so lines
/// still count right. Where the `/` of a refused element's early end is written, the element is
/// noted as a `Refusal`, for `XMLStreamParser` to find where libxml2 reports it.
///
/// It decides how far blanking goes: through the rest of a tag or section, or through a refused
/// element's content and end tag, which it follows by the depths the tag scanner reports.
struct XMLBlanker {
    /// An element cut down to the limits, and why. It is found by where its start tag ends for
    /// libxml2: the offset (in the filtered stream) of the `/` of its early `/>`, which is where
    /// libxml2 stands when it reports the element.
    struct Refusal: Equatable {
        var tagEnd: Int64
        var reason: String
    }

    /// What is being blanked.
    private enum Blanking: Equatable {
        case none
        /// The rest of a refused start tag, from its early end on.
        case restOfTag
        /// The rest of an end tag past the limit, from its early `>` on, through its own `>`.
        case restOfEndTag
        /// The content and end tag of a refused element, until the depth is `untilDepth` again.
        case content(untilDepth: Int)
        /// The rest of a comment, instruction or CDATA section past the limit, from its early end
        /// on, through its own end.
        case restOfSection
    }

    private var blanking = Blanking.none
    /// Why the current start tag is refused, until its refusal is noted.
    private var reason: String?
    /// The bytes that end a refused tag early, written over the next blanked bytes.
    private var ending: [UInt8] = []
    private var endingWritten = 0
    /// Line feeds overwritten by an early end, which go into the next blanked bytes instead.
    private var owedLineFeeds = 0
    /// Refusals not yet taken, oldest first, from `firstRefusal` on.
    private var refusals: [Refusal] = []
    private var firstRefusal = 0

    /// Whether bytes are being overwritten: what is read then never reaches libxml2.
    var isBlanking: Bool { blanking != .none }

    // MARK: - Starting and ending

    /// Refuses the current start tag from the next byte on: `ending` ends it there as an empty
    /// element, and the rest of it, its content and its end tag are blanked.
    mutating func refuse(_ why: String, ending: [UInt8]) {
        reason = why
        endEarly(with: ending, blanking: .restOfTag)
    }

    /// Ends the current end tag from the next byte on with `>`, and blanks the rest of it.
    mutating func endEndTagEarly() {
        endEarly(with: [XMLByteClass.greaterThan], blanking: .restOfEndTag)
    }

    /// Ends the current comment, instruction or CDATA section from the next byte on with
    /// `ending`, and blanks the rest of it.
    mutating func endSectionEarly(with ending: [UInt8]) {
        endEarly(with: ending, blanking: .restOfSection)
    }

    /// From the next byte on, `ending` is written over what follows, and then `blanking` goes on.
    private mutating func endEarly(with ending: [UInt8], blanking: Blanking) {
        self.ending = ending
        endingWritten = 0
        self.blanking = blanking
    }

    /// A start tag ended at its own `>`, however libxml2 saw it end; `depth` counts it open unless
    /// it is `empty`. A refused element's content is blanked next, unless it has none.
    mutating func startTagEnded(empty: Bool, depth: Int) {
        guard blanking == .restOfTag else { return }
        blanking = empty ? .none : .content(untilDepth: depth - 1)
    }

    /// An end tag ended at its own `>`, closing an element: `depth` is the depth outside it. The
    /// end tag of a refused element is blanked too (by the scanner), and then no more.
    mutating func endTagEnded(depth: Int) {
        switch blanking {
        case .restOfEndTag:
            blanking = .none
        case .content(let untilDepth):
            if depth <= untilDepth { blanking = .none }
        case .none, .restOfTag, .restOfSection:
            break
        }
    }

    /// A comment, instruction or CDATA section ended at its own end.
    mutating func sectionEnded() {
        if blanking == .restOfSection { blanking = .none }
    }

    // MARK: - Overwriting

    /// Overwrites `range`: first with what is left of an early end, then with spaces, keeping
    /// line feeds. Notes the refusal where the early end's `/` is written.
    mutating func blank(_ bytes: UnsafeMutablePointer<UInt8>, _ range: Range<Int>, offset: Int64) {
        for index in range {
            let byte = bytes[index]
            if endingWritten < ending.count {
                let written = ending[endingWritten]
                endingWritten += 1
                bytes[index] = written
                if written == XMLByteClass.slash, let reason {
                    refusals.append(Refusal(tagEnd: offset + Int64(index), reason: reason))
                    self.reason = nil
                }
                if byte == XMLByteClass.lineFeed { owedLineFeeds += 1 }
            } else if byte == XMLByteClass.lineFeed {
                continue
            } else if owedLineFeeds > 0 {
                bytes[index] = XMLByteClass.lineFeed
                owedLineFeeds -= 1
            } else {
                bytes[index] = XMLByteClass.space
            }
        }
    }

    /// Forgets what is left of an early end: the markup ended before it was written (only a
    /// malformed tag does; libxml2 reports it).
    mutating func dropEnding() {
        ending.removeAll(keepingCapacity: true)
        endingWritten = 0
        reason = nil
    }

    // MARK: - Refusals

    /// Whether a refusal is waiting to be taken.
    var hasRefusals: Bool { firstRefusal < refusals.count }

    /// The reason the element whose start tag ends at `tagEnd` is refused, or `nil`. Refusals of
    /// tags before `tagEnd` (which libxml2 never reported) are dropped.
    mutating func takeRefusal(forTagEndingAt tagEnd: Int64) -> String? {
        while firstRefusal < refusals.count, refusals[firstRefusal].tagEnd < tagEnd { firstRefusal += 1 }
        defer {
            if firstRefusal == refusals.count {
                refusals.removeAll(keepingCapacity: true)
                firstRefusal = 0
            }
        }
        guard firstRefusal < refusals.count, refusals[firstRefusal].tagEnd == tagEnd else { return nil }
        firstRefusal += 1
        return refusals[firstRefusal - 1].reason
    }
}
