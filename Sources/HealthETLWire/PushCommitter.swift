/// What the push receiver hands a request's body to: something that reads it and commits it
/// whole before it returns (the store and the source reader live outside the server).
public protocol PushCommitter: Sendable {
    /// Reads and commits one pushed body for the device a token names. The body's file is
    /// removed once this returns.
    /// - Returns: the JSON answer for a body that was read (200), or why it could not be (400).
    func commit(body: PushBody, device: String, requestID: String) async throws -> PushOutcome
}

/// How a pushed body went.
public enum PushOutcome: Sendable {
    /// Committed; the JSON answer says what was stored and what was refused. The counts are
    /// its records: new, already stored, refused.
    case committed(json: [UInt8], stored: Int, duplicates: Int, refused: Int)
    /// Not the JSON the receiver reads: nothing of it was committed.
    case malformed(reason: String)
}
