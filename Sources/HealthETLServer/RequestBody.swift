import Hummingbird

/// A request's body as sent, within the server's limit: one place for the collector's batches
/// and the receiver's pushes, so both refuse an oversized body the same way.
enum RequestBody {
    /// - Parameter advice: what the client should do instead, after the limit in the 413's message.
    static func collect(_ request: Request, upTo limit: Int, advice: String) async throws -> [UInt8] {
        do {
            return Array(try await request.body.collect(upTo: limit).readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, "body_too_large", "the body is larger than \(limit) bytes; \(advice)")
        }
    }
}
