import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension CollectorToken {
    /// The systemd credential the token is read from when no file is given
    /// (`LoadCredential=healthetl-token:/etc/healthetl/token` in the unit).
    public static let credentialName = "healthetl-token"

    /// A token is one line; anything longer is not a token file.
    static let maximumFileBytes = 4096

    /// The token the CLI uses: from `--token-file PATH` when given, otherwise from the systemd
    /// credential `$CREDENTIALS_DIRECTORY/healthetl-token`.
    /// - Parameter environment: the process environment (tests pass their own).
    /// - Throws: `CollectorSinkError` saying how to provide a usable token.
    public static func load(
        tokenFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CollectorSinkError) -> CollectorToken {
        if let tokenFile {
            return try CollectorToken(file: tokenFile)
        }
        guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
            throw CollectorSinkError(
                .tokenMissing,
                "no collector token: pass --token-file PATH (a file holding only the token, mode 600), "
                    + "or run under systemd with LoadCredential=\(credentialName):PATH")
        }
        let path = directory.hasSuffix("/") ? directory + credentialName : directory + "/" + credentialName
        guard access(path, F_OK) == 0 else {
            throw CollectorSinkError(
                .tokenMissing,
                "CREDENTIALS_DIRECTORY is set but holds no \(credentialName) credential: add "
                    + "LoadCredential=\(credentialName):PATH to the unit, or pass --token-file PATH")
        }
        return try CollectorToken(file: path)
    }

    /// Reads a token file that only its owner may read or write (reliability P2).
    /// - Throws: `CollectorSinkError`; the message names the file and the fix, never the token.
    public init(file path: String) throws(CollectorSinkError) {
        // Checked on the open descriptor, so the file read is the file whose mode was checked.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CollectorSinkError(
                .tokenFileUnreadable,
                "cannot open the token file \(path) (\(reason)); create it with only the token in it and run `chmod 600 \(path)`"
            )
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw CollectorSinkError(
                .tokenFileUnreadable,
                "the token file \(path) is not a regular file; point --token-file at the file holding the token"
            )
        }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw CollectorSinkError(
                .tokenFileNotPrivate,
                "the token file \(path) can be read or changed by other users (mode \(String(mode, radix: 8))); "
                    + "run `chmod 600 \(path)` and try again")
        }
        guard info.st_size <= Self.maximumFileBytes else {
            throw CollectorSinkError(
                .tokenInvalid,
                "the token file \(path) is larger than \(Self.maximumFileBytes) bytes; it should hold only the token"
            )
        }
        var bytes = [UInt8](repeating: 0, count: Self.maximumFileBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes {
                read(descriptor, $0.baseAddress! + count, $0.count - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else {
                throw CollectorSinkError(
                    .tokenFileUnreadable,
                    "cannot read the token file \(path) (\(String(cString: strerror(errno))))")
            }
            if got == 0 { break }
            count += got
        }
        guard count <= Self.maximumFileBytes else {
            throw CollectorSinkError(
                .tokenInvalid,
                "the token file \(path) is larger than \(Self.maximumFileBytes) bytes; it should hold only the token"
            )
        }
        do throws(CollectorSinkError) {
            self = try CollectorToken(String(decoding: bytes[0..<count], as: UTF8.self))
        } catch {
            throw CollectorSinkError(error.code, "\(path): \(error.message)")
        }
    }
}
