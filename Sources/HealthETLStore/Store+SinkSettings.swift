extension Store {
    /// The value of setting `name` the sink `sink` last accepted, or nil if it never did.
    public func sentSinkSetting(_ name: String, sink: String) throws -> String? {
        let statement = try prepared("SELECT value FROM sink_settings WHERE sink = ?1 AND name = ?2")
        try statement.bind(.text(sink), .text(name))
        return try statement.step() ? statement.text(0) : nil
    }

    /// Records that the sink `sink` accepted `value` for setting `name`.
    public func recordSentSinkSetting(_ name: String, value: String, sink: String) throws {
        try prepared(
            """
            INSERT INTO sink_settings(sink, name, value, sent_ms) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT(sink, name) DO UPDATE SET value = excluded.value, sent_ms = excluded.sent_ms
            """
        ).run(.text(sink), .text(name), .text(value), .integer(now().millisecondsSinceEpoch))
    }
}
