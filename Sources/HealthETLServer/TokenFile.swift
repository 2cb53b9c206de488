import Crypto
import Foundation
import HealthETLCollectorStorage

/// The `--tokens` file: `USER_ID TOKEN` per line (blank lines and `#` comments allowed).
///
/// It must be private (no group or other permission bits), because anyone who reads it can act
/// as every user in it. Only SHA-256 digests of the tokens are kept in memory.
struct TokenFile {
    struct Entry {
        let user: String
        let digest: [UInt8]
    }

    let entries: [Entry]

    /// Tokens this short are guessable; refuse them.
    static let minimumTokenLength = 16

    /// - Parameter option: the command-line option that names the file, for the error messages.
    init(path: String, option: String = "--tokens") throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CollectorError(
                "no tokens file at \(path): create it with one 'USER_ID TOKEN' line per user "
                    + "(e.g. a token from `openssl rand -hex 32`) and `chmod 600` it, or pass \(option) FILE")
        }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw CollectorError(
                "the tokens file \(path) is readable by others (mode \(String(mode, radix: 8))); run `chmod 600 \(path)`"
            )
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CollectorError("cannot read the tokens file \(path)")
        }
        var entries: [Entry] = []
        var users = Set<String>()
        var digests = Set<[UInt8]>()
        // Any line ending: "\r\n" is one Character in Swift, and a newline, so CRLF files read
        // like LF ones instead of leaving a "\r" at the end of every token.
        for (index, rawLine) in String(decoding: data, as: UTF8.self).split(
            omittingEmptySubsequences: false, whereSeparator: \.isNewline
        ).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            // The token itself is never repeated in a message.
            guard fields.count == 2 else {
                throw CollectorError(
                    "\(path) line \(index + 1): expected 'USER_ID TOKEN' (two fields separated by a space), "
                        + "found \(fields.count) fields")
            }
            let user = String(fields[0])
            guard user.utf8.count <= 128, user.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw CollectorError("\(path) line \(index + 1): a user id is up to 128 printable ASCII characters")
            }
            let token = Array(fields[1].utf8)
            guard token.count >= Self.minimumTokenLength else {
                throw CollectorError(
                    "\(path) line \(index + 1): the token is shorter than \(Self.minimumTokenLength) characters")
            }
            guard token.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw CollectorError(
                    "\(path) line \(index + 1): a token is printable ASCII, without control characters")
            }
            guard users.insert(user).inserted else {
                throw CollectorError("\(path) line \(index + 1): user \(user) has a token already (one token per user)")
            }
            let digest = Array(SHA256.hash(data: token))
            guard digests.insert(digest).inserted else {
                throw CollectorError(
                    "\(path) line \(index + 1): this token is another user's too; give every user a token of their own")
            }
            entries.append(Entry(user: user, digest: digest))
        }
        guard !entries.isEmpty else { throw CollectorError("\(path) holds no 'USER_ID TOKEN' line") }
        self.entries = entries
    }
}
