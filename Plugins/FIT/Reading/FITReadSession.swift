import HealthETLCore

/// Reads the FIT files of one input, unit by unit, into source events: cuts each file stream
/// into FIT files, checks each file's CRC, decodes its messages, maps them, and hands the
/// records on in lanes with checkpoints at message boundaries — skipping what a resumed read's
/// cursor already covers.
///
/// A position is the unit's number in the high bits and the FIT bytes read within it in the
/// low 40: monotonic over the input, and a resumed read starts at its unit without reading the
/// ones before.
final class FITReadSession {
    static let unitShift = PositionKind.fileShift
    /// Records between checkpoints, at least.
    static let recordsPerCheckpoint = 5_000

    private let mappings: FITMappings
    private let person: UInt64
    private let hotSince: Instant
    private let resumeAt: Int64
    private let stream: String
    private let emit: (SourceEvent) throws -> Void

    /// Problems that lost nothing, by kind; what was not read or not mapped.
    private(set) var warnings: [String: Int] = [:]
    /// Damage, each with its input and byte offset.
    private(set) var problems: [String] = []

    private var unitBase: Int64 = 0
    /// FIT bytes of this unit's earlier file streams.
    private var streamBase: Int64 = 0
    private var streamName = ""
    private var splitter = FITFileSplitter()
    private var mapper: FITMessageMapper
    private var recordsSinceCheckpoint = 0
    private var lastCheckpoint: Int64 = 0

    init(
        catalog: MetricCatalog, person: UInt64, hotSince: Instant, resumeAt: Int64, stream: String,
        emit: @escaping (SourceEvent) throws -> Void
    ) {
        self.mappings = FITMappings(catalog: catalog)
        self.person = person
        self.hotSince = hotSince
        self.resumeAt = resumeAt
        self.stream = stream
        self.emit = emit
        mapper = FITMessageMapper(mappings: mappings, names: .bundled, person: person)
    }

    /// Starts unit `index`.
    func beginUnit(_ index: Int) {
        unitBase = Int64(index) << Self.unitShift
        streamBase = 0
    }

    /// Ends the current unit with a checkpoint at the next unit's start.
    func endUnit(_ index: Int) throws {
        try checkpoint(Int64(index + 1) << Self.unitShift)
    }

    /// A file stream (a `.fit` file or entry, or a decompressed `.fit.gz`) starts.
    func beginFile(_ name: String) {
        streamName = name
        splitter = FITFileSplitter()
        mapper = FITMessageMapper(mappings: mappings, names: .bundled, person: person)
    }

    func bytes(_ chunk: UnsafeRawBufferPointer) throws {
        do {
            try splitter.feed(chunk) { try decode($0) }
        } catch let damage as FITDamage {
            damaged(damage)
        }
    }

    /// The file stream ended: a file still open was cut off; what its messages left open closes.
    func endFile() throws {
        do {
            try splitter.finish { try decode($0) }
        } catch let damage as FITDamage {
            damaged(damage)
        }
        try mapper.finish { try hand($0, at: position(splitter.consumed)) }
        if splitter.trailingBytes > 0 { warnings["bytes_after_last_fit_file", default: 0] += 1 }
        warnings.merge(mapper.warnings, uniquingKeysWith: +)
        streamBase += splitter.consumed
    }

    /// A file of the input that is no FIT file, by kind (`gpx`, `tcx`, `json`…).
    func notRead(kind: String) {
        warnings["not_read:" + kind, default: 0] += 1
    }

    /// Damage outside any FIT file (an archive's), reported as such.
    func problem(_ text: String) {
        problems.append(text)
    }

    // MARK: - Decoding

    private func decode(_ file: FITFileBytes) throws {
        switch file.integrity {
        case .crcMismatch:
            warnings["fit_files_refused", default: 0] += 1
            problems.append(
                "\(streamName): the FIT file at byte \(file.start) fails its CRC check, so none of it is read "
                    + "(a byte in it is wrong; copy the file from the device again)")
            return
        case .cutOff(let present):
            problems.append(
                "\(streamName): the FIT file at byte \(file.start) is cut off after \(present) of its "
                    + "\(file.header.dataSize) data bytes; the messages before the cut are read")
        case .intact:
            break
        }
        try findLocalOffset(in: file)
        var decoder = FITMessageDecoder()
        do {
            try file.withData { data in
                try decoder.decode(data, base: file.dataStart) { message, end in
                    try mapper.take(message) { try hand($0, at: position(end)) }
                    try maybeCheckpoint(at: position(end))
                }
            }
        } catch let damage as FITDamage {
            // A file known to be cut off ends inside a message: already said.
            if case .cutOff = file.integrity, damage.isCutOff { return }
            damaged(damage)
        }
    }

    /// An activity tells its UTC offset in its last message: a first pass finds it, so every
    /// record of the file is placed in the wearer's day (and a second an activity and the day's
    /// monitoring both hold is one sample). Monitoring files tell it first, and stop the pass there.
    private func findLocalOffset(in file: FITFileBytes) throws {
        guard mapper.utcOffsetSeconds == nil else { return }
        struct Found: Error {}
        var decoder = FITMessageDecoder()
        do {
            try file.withData { data in
                try decoder.decode(data, base: 0) { message, _ in
                    guard
                        message.globalNumber == FITProfile.activity || message.globalNumber == FITProfile.monitoringInfo
                    else { return }
                    mapper.readLocalTime(message)
                    if mapper.utcOffsetSeconds != nil { throw Found() }
                }
            }
        } catch is Found {
        } catch is FITDamage {
            // The reading pass reports it.
        }
    }

    private func position(_ withinStream: Int64) -> Int64 {
        unitBase + streamBase + withinStream
    }

    private func damaged(_ damage: FITDamage) {
        problems.append("\(streamName): \(damage.reason) (byte \(damage.offset))")
    }

    // MARK: - Handing on

    private func hand(_ item: FITItem, at position: Int64) throws {
        guard position > resumeAt else { return }
        let lane = Lane.of(ending: item.end, hotSince: hotSince)
        switch item {
        case .record(let record):
            try emit(.record(record, lane: lane))
        case .workout(let workout, let record):
            try emit(.record(record, lane: lane))
            try emit(.workout(workout, lane: lane))
        }
        recordsSinceCheckpoint += 1
    }

    private func maybeCheckpoint(at position: Int64) throws {
        if recordsSinceCheckpoint >= Self.recordsPerCheckpoint { try checkpoint(position) }
    }

    private func checkpoint(_ position: Int64) throws {
        guard position > resumeAt, position > lastCheckpoint else { return }
        recordsSinceCheckpoint = 0
        lastCheckpoint = position
        try emit(.checkpoint(StreamCursor(stream: stream, lane: .cold, position: position)))
    }
}
