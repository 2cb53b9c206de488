/// The exit codes of the command-line contract.
enum ExitStatus: Int32 {
    case success = 0
    /// The command failed; nothing or only committed work remains.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// Some input could not be used; what could was committed.
    case partial = 3
}
