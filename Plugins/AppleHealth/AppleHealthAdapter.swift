import HealthETLCore
import HealthETLZip

/// Source adapter `apple_health`: reads what the Health app's "Export All Health Data" writes.
///
/// The main file is streamed through libxml2's push parser straight out of the archive (nothing
/// is extracted), records are tagged hot or cold by the export date, and after the main file the
/// ECG recordings are read. Damage part-way (a truncated download, a bad CRC) ends the read as
/// incomplete, with everything before it already handed on.
///
/// Checkpoints fall at the ends of top-level elements, so a read resumed from the store's cursors
/// for the same export (its stream names the export date) parses the prologue up to the
/// `ExportDate`, passes over the committed stretch unparsed, and parses on from the cursor.
public struct AppleHealthAdapter: SourceAdapter {
    public static let name = "apple_health"
    public static let summary = "Apple Health export: export.zip, its export.xml, or the unzipped folder"
    public static let capabilities: SourceCapabilities = [.exports, .resumable]

    /// What `recognize` found in an export.zip, for the `read` that follows.
    private let recognized = ArchiveHandoff()

    public init() {}

    public func recognize(_ input: SourceInput) -> SourceRecognition {
        do {
            let files = try ExportLocator.locate(input.path)
            if let archive = files as? ZipExportFiles { recognized.keep(archive.located) }
            return .recognized
        } catch {
            return .notRecognized(reason: "\(error)")
        }
    }

    public func read(_ input: SourceInput, into handler: inout some SourceEventHandler) throws -> SourceReadReport {
        let files = try ExportLocator.locate(input.path, recognized: recognized.take(path: input.path))
        let fingerprint = ExportFingerprint.of(files)
        let resume = try resumePoint(files, input, fingerprint: fingerprint)
        var xml = ExportXMLHandler(
            hotWindowSeconds: input.hotWindowSeconds, readAt: input.readAt, routes: RouteResolver(files: files),
            endPosition: Self.endPosition(of: files), fingerprint: fingerprint)
        let parser = XMLStreamParser(handler: xml)
        var problem: String?
        var damagedContent = false
        var position: Int64
        if let resume, let size = files.mainSize, resume.at >= size {
            // The main file is committed whole: only its stream is needed, for what follows it. (The
            // prologue of an undated export ends at its first element, which it read: that is
            // committed, and handed on again it would be counted a duplicate of nothing read.)
            xml = resume.prologue
            for event in xml.events {
                if case .streamStarted = event { try handler.receive(event) }
            }
            xml.events.removeAll()
            try handler.receive(.resumed(at: resume.at))
            position = size
        } else {
            var reader = ResumingReader(resume: resume)
            do {
                try files.readMain { chunk in
                    try reader.feed(chunk, to: parser) { resumedAt in
                        try xml.takeCompletedEvents {
                            try hand($0, position: parser.topLevelEnd, stream: xml.streamName, to: &handler)
                        }
                        try handler.receive(.resumed(at: resumedAt))
                    }
                    try xml.takeCompletedEvents {
                        try hand($0, position: parser.topLevelEnd, stream: xml.streamName, to: &handler)
                    }
                }
                try parser.finish()
            } catch let error as XMLStreamError where error.kind != .hostile {
                problem =
                    "\(files.mainName) is damaged at line \(error.line), column \(error.column) (byte"
                    + " \(error.byteOffset)): \(error.message). Everything before it was imported"
            } catch let error as ZipError {
                // A failed CRC or inflate of the main file means bytes already parsed may be wrong,
                // not only cut short. (A route file's error ends the read too, before its workout.)
                damagedContent =
                    error.entry == files.mainName && [.crcMismatch, .sizeMismatch, .corruptData].contains(error.kind)
                problem =
                    "the archive is damaged: \(error.description). "
                    + (damagedContent
                        ? "Nothing read from it was kept" : "Everything read before the damage was imported")
            }
            xml.ensureStream()
            // After damage, what an element cut short emitted goes too, under the last boundary.
            try hand(xml.events, position: parser.topLevelEnd, stream: xml.streamName, to: &handler)
            xml.events.removeAll()
            position = problem == nil ? parser.consumedOffset : parser.topLevelEnd
            if position > parser.topLevelEnd {
                try hand([], position: position, stream: xml.streamName, to: &handler)
            }
        }
        for path in files.electrocardiograms {
            position += 1
            if let resume, position <= resume.at { continue }
            let bytes: [UInt8]?
            do {
                bytes = try files.readFile(path)
            } catch {
                // Not a complete snapshot then: superseding by it would delete the older ECGs.
                problem = problem ?? "\(path) could not be read (\(error)). Everything else was imported"
                continue
            }
            guard let bytes else {
                xml.warn("unreadable_ecg_file")
                continue
            }
            let recording = ECGReader.read(bytes, path: path)
            var events: [SourceEvent] = [.document(recording.document)]
            if let record = recording.record {
                // A recent ECG is hot like any record: tier 1 sends it at once.
                let lane = record.end.timestamp.map { xml.lane(ending: $0.instant) } ?? .cold
                events.append(.auxiliaryRecord(record, lane: lane))
            }
            try hand(events, position: position, stream: xml.streamName, to: &handler)
        }
        var warnings = xml.warnings
        warnings.merge(parser.warnings) { $0 + $1 }
        return SourceReadReport(
            complete: problem == nil, warnings: warnings, problem: problem, damagedContent: damagedContent)
    }

    /// Where a read of this export can start again: the lowest of its stream's hot and cold
    /// cursors, when that lies past the prologue (up to the element that starts the stream).
    private func resumePoint(_ files: any ExportFiles, _ input: SourceInput, fingerprint: String) throws -> ResumePoint?
    {
        guard !input.resumeFrom.isEmpty else { return nil }
        let probe = ExportXMLHandler(
            hotWindowSeconds: input.hotWindowSeconds, readAt: input.readAt, routes: RouteResolver(files: files),
            endPosition: Self.endPosition(of: files), fingerprint: fingerprint)
        probe.stopsOnceDated = true
        let parser = XMLStreamParser(handler: probe)
        do {
            try files.readMain { chunk in try parser.feed(chunk) }
        } catch is ExportDated {
            // The prologue ends here.
        } catch {
            return nil
        }
        guard let stream = probe.streamName else { return nil }
        let at = input.resumePosition(of: stream)
        let prologueEnd = parser.topLevelEnd
        guard at > prologueEnd else { return nil }
        return ResumePoint(stream: stream, prologueEnd: prologueEnd, at: at, prologue: probe)
    }

    /// Where the stream ends: the main file's size, and one more position per ECG file read after it.
    private static func endPosition(of files: any ExportFiles) -> Int64? {
        files.mainSize.map { $0 + Int64(files.electrocardiograms.count) }
    }

    /// Hands events on, then a checkpoint covering them.
    private func hand(
        _ events: some Collection<SourceEvent>, position: Int64, stream: String?,
        to handler: inout some SourceEventHandler
    ) throws {
        for event in events { try handler.receive(event) }
        if let stream {
            try handler.receive(.checkpoint(StreamCursor(stream: stream, lane: .cold, position: position)))
        }
    }
}
