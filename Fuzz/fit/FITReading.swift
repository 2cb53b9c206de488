import HealthETLCore

@testable import FIT

/// What `FITFileSplitter` and `FITMessageDecoder` make of one input fed in `chunks`: the FIT
/// files cut out of it (where each starts, its header, its bytes, whether its CRC holds), the
/// damage the splitter reported, and every data message of every file the reader decodes (all
/// but those failing their CRC), with the damage that stopped a file's decoding.
struct FITSplitLog: Equatable {
    struct File: Equatable {
        var start: Int64
        var header: FITFileHeader
        var bytes: [UInt8]
        var integrity: FITFileBytes.Integrity
    }

    struct Message: Equatable {
        var file: Int
        var globalNumber: UInt16
        var timestamp: UInt32?
        var end: Int64
        var bytes: [UInt8]
    }

    var files: [File] = []
    var damage: [FITDamage] = []
    var messages: [Message] = []
    var decodeDamage: [FITDamage] = []
    var consumed: Int64 = 0
    var trailing = false

    init(_ chunks: some Sequence<UnsafeRawBufferPointer>) {
        var splitter = FITFileSplitter()
        var files: [File] = []
        let keep: (FITFileBytes) -> Void = { file in
            files.append(File(start: file.start, header: file.header, bytes: file.bytes, integrity: file.integrity))
        }
        for chunk in chunks {
            // The reader goes on after damage (the splitter passes over what follows), so this does too.
            do { try splitter.feed(chunk, emit: keep) } catch let damage as FITDamage {
                self.damage.append(damage)
            } catch {
                fatalError("the splitter threw \(error), which is no FITDamage")
            }
        }
        do { try splitter.finish(emit: keep) } catch let damage as FITDamage { self.damage.append(damage) } catch {
            fatalError("the splitter threw \(error), which is no FITDamage")
        }
        self.files = files
        consumed = splitter.consumed
        trailing = splitter.trailingBytes > 0
        for (index, file) in files.enumerated() where file.integrity != .crcMismatch {
            let whole = FITFileBytes(
                header: file.header, bytes: file.bytes, start: file.start, integrity: file.integrity)
            var decoder = FITMessageDecoder()
            do {
                try whole.withData { data in
                    try decoder.decode(data, base: whole.dataStart) { message, end in
                        messages.append(
                            Message(
                                file: index, globalNumber: message.globalNumber, timestamp: message.timestamp, end: end,
                                bytes: Array(message.bytes)))
                    }
                }
            } catch let damage as FITDamage {
                decodeDamage.append(damage)
            } catch {
                fatalError("the decoder threw \(error), which is no FITDamage")
            }
        }
    }
}

/// What the plugin's reader (`FITReadSession`: the splitter, the CRC check, the UTC offset's first
/// pass, the decoder, the mapper, the checkpoints) hands on for one input file fed in `chunks`,
/// as a `.fit` file of a folder is read: the events in order, the warnings and the problems.
struct FITSessionLog: Equatable {
    enum Event: Equatable {
        case record(RawRecord, Lane)
        case workout(Workout, Lane)
        case checkpoint(StreamCursor)
        case other(String)
    }

    var events: [Event] = []
    var warnings: [String: Int] = [:]
    var problems: [String] = []

    /// Reads `chunks`; each event is also given to `also` (the normalizer behind the reader).
    init(
        _ chunks: some Sequence<UnsafeRawBufferPointer>, catalog: MetricCatalog, readAt: Instant,
        also: @escaping (SourceEvent) -> Void = { _ in }
    ) {
        var events: [Event] = []
        let session = FITReadSession(
            catalog: catalog, person: 0, hotSince: readAt.adding(seconds: -7 * 86_400), resumeAt: 0, stream: "fit:fuzz"
        ) { event in
            also(event)
            switch event {
            case .record(let record, let lane): events.append(.record(record, lane))
            case .workout(let workout, let lane): events.append(.workout(workout, lane))
            case .checkpoint(let cursor): events.append(.checkpoint(cursor))
            default: events.append(.other("\(event)"))
            }
        }
        do {
            session.beginUnit(0)
            session.beginFile("fuzz.fit")
            for chunk in chunks { try session.bytes(chunk) }
            try session.endFile()
            try session.endUnit(0)
        } catch {
            fatalError("the reader threw \(error): damage must end up in its problems, not be thrown")
        }
        self.events = events
        warnings = session.warnings
        problems = session.problems
    }
}
