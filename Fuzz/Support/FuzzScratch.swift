#if canImport(Glibc)
    import Glibc
#endif

/// Files a fuzz target writes its input to, for readers that take a path: in the directory
/// `FUZZ_SCRATCH` names (`Fuzz/run.sh` makes one and removes it afterwards), else in /tmp.
enum FuzzScratch {
    static let directory = getenv("FUZZ_SCRATCH").map { String(cString: $0) } ?? "/tmp"

    /// Writes the input to this process's file `name`, replacing what it held, and returns its path.
    static func write(_ input: UnsafeRawBufferPointer, as name: String) -> String {
        let path = "\(directory)/\(getpid())-\(name)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(descriptor >= 0, "cannot create \(path)")
        if let base = input.baseAddress {
            precondition(Glibc.write(descriptor, base, input.count) == input.count, "cannot write \(path)")
        }
        close(descriptor)
        return path
    }
}
