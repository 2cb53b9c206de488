/// Thrown by a probing `ExportXMLHandler` once the export's stream is known: the probe has what
/// it came for.
struct ExportDated: Error {}
