/// Anything in an export that is neither a sample, a workout nor an activity summary, kept whole:
/// characteristics (`Me`), clinical record references, audiograms, vision prescriptions,
/// ECG recordings, and elements healthetl does not know yet.
public struct ExportDocument: Hashable, Sendable {
    /// `characteristics`, `clinical_record`, `audiogram`, `vision_prescription`, `ecg`,
    /// `unknown_element`, ….
    public var kind: String
    /// Identity over kind and body, so re-imports keep one copy.
    public var id: ContentID
    public var start: Instant?
    public var end: Instant?
    public var sourceName: String?
    /// The document as a JSON object.
    public var body: String

    public init(kind: String, start: Instant? = nil, end: Instant? = nil, sourceName: String? = nil, body: String) {
        self.kind = kind
        self.id = ContentID(
            metric: "document:" + kind, source: sourceName ?? "", start: start ?? Instant(millisecondsSinceEpoch: 0),
            end: end ?? Instant(millisecondsSinceEpoch: 0), value: body, unit: nil)
        self.start = start
        self.end = end
        self.sourceName = sourceName
        self.body = body
    }
}
