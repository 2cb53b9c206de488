/// The bearer token the collector knows this user by.
///
/// The text never leaves this type except as the `Authorization` header: its description, debug
/// description and mirror are redacted, so logging or dumping a configuration cannot leak it.
public struct CollectorToken: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// Read only by the sink, for the `Authorization` header.
    let secret: String

    /// A token from text: surrounding whitespace (a file's trailing newline) is dropped.
    /// - Throws: `CollectorSinkError.Code.tokenInvalid` for an empty token or one with spaces or
    ///   control characters inside (it could not travel in an HTTP header).
    public init(_ text: String) throws(CollectorSinkError) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw CollectorSinkError(
                .tokenInvalid,
                "the collector token is empty; put the token the collector issued for you in the file")
        }
        guard trimmed.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw CollectorSinkError(
                .tokenInvalid,
                "the collector token contains spaces, control or non-ASCII characters; a token is one line of printable ASCII"
            )
        }
        secret = trimmed
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "CollectorToken(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension String {
    /// Without leading and trailing ASCII whitespace, with no Foundation needed.
    fileprivate func trimmingWhitespace() -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 32 || (9...13).contains(byte) }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
