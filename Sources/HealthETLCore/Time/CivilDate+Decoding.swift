extension KeyedDecodingContainer {
    /// A `YYYY-MM-DD` string as a date; anything else is a `dataCorrupted` error at the key.
    public func decodeDate(forKey key: Key) throws -> CivilDate {
        guard let date = CivilDate(text: try decode(String.self, forKey: key)) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not a date, YYYY-MM-DD")
        }
        return date
    }
}
