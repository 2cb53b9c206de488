import HealthETLCore

/// Source adapter `apple_health`: reads what the Health app's "Export All Health Data" writes.
///
/// The main file is streamed through libxml2's push parser straight out of the archive (nothing
/// is extracted), records are tagged hot or cold by the export date, and after the main file the
/// ECG recordings are read. Damage part-way (a truncated download, a bad CRC) ends the read as
/// incomplete, with everything before it already handed on.
public struct AppleHealthAdapter: SourceAdapter {
    public static let name = "apple_health"
    public static let summary = "Apple Health export: export.zip, its export.xml, or the unzipped folder"

    public init() {}

    public var capabilities: SourceCapabilities { [.exports, .resumable] }

    public func recognize(_ input: SourceInput) -> SourceRecognition {
        do {
            _ = try ExportLocator.locate(input.path)
            return .recognized
        } catch {
            return .notRecognized(reason: "\(error)")
        }
    }

    public func read(_ input: SourceInput, into handler: inout some SourceEventHandler) throws -> SourceReadReport {
        let files = try ExportLocator.locate(input.path)
        let xml = ExportXMLHandler(
            hotWindowSeconds: input.hotWindowSeconds, routes: RouteResolver(files: files), endPosition: files.mainSize)
        let parser = XMLStreamParser(handler: xml)
        var problem: String?
        do {
            try files.readMain { chunk in
                try parser.feed(chunk)
                try hand(xml.events, position: parser.consumedOffset, stream: xml.streamName, to: &handler)
                xml.events.removeAll(keepingCapacity: true)
            }
            try parser.finish()
        } catch let error as XMLStreamError where error.kind != .hostile {
            problem = "\(files.mainName) is damaged at line \(error.line), column \(error.column) (byte"
                + " \(error.byteOffset)): \(error.message). Everything before it was imported"
        } catch let error as ZipError {
            problem = "the archive is damaged: \(error.description). Everything read before the damage was imported"
        }
        xml.ensureStream()
        var position = parser.consumedOffset
        try hand(xml.events, position: position, stream: xml.streamName, to: &handler)
        xml.events.removeAll()
        for path in files.electrocardiograms {
            guard let bytes = try? files.readFile(path) else {
                xml.warn("unreadable_ecg_file")
                continue
            }
            let recording = ECGReader.read(bytes, path: path)
            var events: [SourceEvent] = [.document(recording.document)]
            if let record = recording.record { events.append(.auxiliaryRecord(record, lane: .cold)) }
            position += 1
            try hand(events, position: position, stream: xml.streamName, to: &handler)
        }
        var warnings = xml.warnings
        warnings.merge(parser.warnings) { $0 + $1 }
        return SourceReadReport(complete: problem == nil, warnings: warnings, problem: problem)
    }

    /// Hands events on, then a checkpoint covering them.
    private func hand(
        _ events: [SourceEvent], position: Int64, stream: String?, to handler: inout some SourceEventHandler
    ) throws {
        for event in events { try handler.receive(event) }
        if let stream {
            try handler.receive(.checkpoint(StreamCursor(stream: stream, lane: .cold, position: position)))
        }
    }
}
