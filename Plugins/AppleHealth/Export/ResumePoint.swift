/// Where a resumed read of an export passes over committed input: from the end of the prologue
/// (the `ExportDate` element) to the lowest committed cursor of its stream.
struct ResumePoint {
    var stream: String
    /// Just past the `ExportDate` element: the parser is fed up to here.
    var prologueEnd: Int64
    /// The cursor: parsing goes on from here.
    var at: Int64
    /// The handler that read the prologue: its events (the stream's start) and lanes serve a
    /// read that parses nothing more.
    var prologue: ExportXMLHandler
}
