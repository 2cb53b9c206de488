import Crypto

/// Finds the user a bearer token belongs to, in time that does not depend on which stored
/// token (if any) it matches, or on how many of its bytes agree.
struct Authenticator: Sendable {
    private let entries: [(user: String, digest: [UInt8])]

    init(_ file: TokenFile) {
        entries = file.entries.map { ($0.user, $0.digest) }
    }

    var users: [String] { entries.map(\.user) }

    /// The user of an `Authorization: Bearer TOKEN` header value, or nil.
    func user(authorization: String?) -> String? {
        guard let authorization, authorization.count > 7,
            authorization.prefix(7).lowercased() == "bearer "
        else { return nil }
        let presented = Array(SHA256.hash(data: Array(authorization.dropFirst(7).utf8)))
        var found: String?
        // Every entry is compared in full: no early exit on a match or on the first differing byte.
        for entry in entries {
            var difference: UInt8 = 0
            for index in 0..<presented.count { difference |= presented[index] ^ entry.digest[index] }
            if difference == 0 { found = entry.user }
        }
        return found
    }
}
