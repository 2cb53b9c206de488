import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite

/// A sample's source, version, device and time zone are ids into `texts`, where each text is
/// stored once, byte for byte. A device reads like "name:Apple Watch, manufacturer:Apple Inc.,
/// model:Watch, hardware:Watch6,2, software:11.1" on every one of its samples: as ids, a samples
/// row is about 80 bytes instead of 200, and ingest writes that much less B-tree and WAL.
///
/// One `SampleTexts` serves one batch or one read, inside the caller's transaction, so what it
/// remembers can never outlive a rollback.
struct SampleTexts {
    /// The columns of `samples` that hold text ids.
    enum Column: Int, CaseIterable {
        case source, version, device, zone
    }

    private let connection: SQLiteConnection
    private let find: SQLiteStatement
    private let add: SQLiteStatement
    private let read: SQLiteStatement
    private var ids: [ExactText: Int64] = [:]
    private var texts: [Int64: String] = [:]
    /// The text and id each column was last asked for: samples come in runs of one source.
    private var lastTexts: [String?] = Array(repeating: nil, count: Column.allCases.count)
    private var lastIDs: [Int64] = Array(repeating: 0, count: Column.allCases.count)
    /// The id and text each result column last read, by column index: rows come in runs too.
    private var lastRead: [(id: Int64, text: String)?] = Array(repeating: nil, count: 16)

    init(connection: SQLiteConnection) throws {
        self.connection = connection
        find = try connection.prepare("SELECT id FROM texts WHERE text = ?1")
        add = try connection.prepare("INSERT INTO texts(text) VALUES (?1)")
        read = try connection.prepare("SELECT text FROM texts WHERE id = ?1")
    }

    /// The id of `text` (stored now if it is new); nil for nil.
    mutating func id(of text: String?, in column: Column) throws -> Int64? {
        guard let text else { return nil }
        let slot = column.rawValue
        if ExactText.sameBytes(lastTexts[slot], text) { return lastIDs[slot] }
        let id = try id(of: ExactText(text))
        lastTexts[slot] = text
        lastIDs[slot] = id
        return id
    }

    private mutating func id(of text: ExactText) throws -> Int64 {
        if let id = ids[text] { return id }
        try find.bind(.text(text.text))
        let id: Int64
        if let stored = try find.firstRow({ $0.int64(0) }) {
            id = stored
        } else {
            try add.run(.text(text.text))
            id = connection.lastInsertRowID
        }
        ids[text] = id
        return id
    }

    /// The text whose id is in `column` of the row `statement` stands on; nil for NULL.
    mutating func text(_ column: Int32, of statement: SQLiteStatement) throws -> String? {
        guard !statement.isNull(column) else { return nil }
        let id = statement.int64(column)
        let slot = Int(column)
        if lastRead.indices.contains(slot), let last = lastRead[slot], last.id == id { return last.text }
        let text = try text(id: id)
        if lastRead.indices.contains(slot) { lastRead[slot] = (id, text) }
        return text
    }

    private mutating func text(id: Int64) throws -> String {
        if let text = texts[id] { return text }
        try read.bind(.integer(id))
        guard let text = try read.firstRow({ $0.text(0) }) ?? nil else {
            throw CollectorError("the collector's database names text \(id), which it does not hold")
        }
        texts[id] = text
        return text
    }
}
