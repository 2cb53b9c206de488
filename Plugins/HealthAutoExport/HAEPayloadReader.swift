import HealthETLCore

/// Reads Health Auto Export JSON, fed in chunks of any size, into items: the tokenizer finds the
/// tokens, the document reader the points and section items, and the item readers turn each
/// into records. Only one item is held at a time, so a file of any size streams in bounded memory.
final class HAEPayloadReader {
    // One reader is used by one thread at a time, and the three are reached by nested closures
    // for every token: no dynamic exclusivity checks on them.
    @exclusivity(unchecked) private var tokenizer = JSONTokenizer()
    @exclusivity(unchecked) private var document = HAEDocumentReader()
    @exclusivity(unchecked) private var points: HAEPointReader
    private let workouts: HAEWorkoutReader
    /// Bytes fed so far.
    private(set) var bytesRead: Int64 = 0

    init(catalog: MetricCatalog) {
        points = HAEPointReader(catalog: catalog)
        workouts = HAEWorkoutReader(catalog: catalog)
    }

    /// What the run's warnings say of this text: sections read past, places of the wrong type.
    var warnings: [String: Int] {
        var warnings: [String: Int] = [:]
        for section in document.ignoredSections { warnings["unknown_section:" + section] = 1 }
        for (place, count) in document.wrongTypes { warnings["not_an_array:" + place] = count }
        return warnings
    }

    /// Reads a chunk, handing on every item it completes.
    /// - Throws: `JSONStreamError` where the text stops being HAE's JSON, or what `emit` throws.
    func feed(_ bytes: UnsafeRawBufferPointer, emit: (HAEItem) throws -> Void) throws {
        try located { try tokenizer.feed(bytes) { token in try document.take(token) { try read($0, emit) } } }
        bytesRead += Int64(bytes.count)
    }

    /// The text's end: it must be whole.
    func finish(emit: (HAEItem) throws -> Void) throws {
        try located {
            try tokenizer.finish { token in try document.take(token) { try read($0, emit) } }
            try document.finish { try read($0, emit) }
        }
    }

    /// Gives an error of the document reader (which sees tokens, not bytes) the tokenizer's offset.
    private func located(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch var error as JSONStreamError where error.byteOffset < 0 {
            error.byteOffset = tokenizer.offset
            throw error
        }
    }

    private func read(_ event: HAEDocumentReader.Event, _ emit: (HAEItem) throws -> Void) throws {
        switch event {
        case .point(let metric, let units, let value):
            try points.read(metric: metric, units: units, point: value, emit: emit)
        case .item("workouts", let value):
            try workouts.read(value, points: &points, emit: emit)
        case .item(let section, let value):
            try emit(.record(HAESectionReader.record(section: section, item: value)))
        }
    }
}
