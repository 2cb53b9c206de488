extension Store {
    /// The settings a live stream was created with, as its source wrote them; `nil` for a
    /// stream the store has not seen or that has none.
    public func streamSettings(_ stream: String) throws -> String? {
        let statement = try prepared("SELECT settings FROM streams WHERE name = ?1")
        try statement.bind(.text(stream))
        return try statement.firstRow { $0.text(0) } ?? nil
    }

    /// Records a live stream's settings, creating the stream if needed.
    public func setStreamSettings(_ stream: String, to settings: String) throws {
        try connection.writeTransaction {
            let id = try intern(.streams, stream)
            try prepared("UPDATE streams SET settings = ?1 WHERE id = ?2").run(.text(settings), .integer(id))
        }
    }
}
