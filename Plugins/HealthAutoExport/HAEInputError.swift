/// An input that cannot be read at all.
enum HAEInputError: Error, CustomStringConvertible {
    case missing(path: String)
    case unreadable(path: String)
    /// The temporary file that holds a large metric's points until its units are read failed.
    case spill(reason: String)

    var description: String {
        switch self {
        case .missing(let path): "\(path) does not exist"
        case .unreadable(let path): "\(path) cannot be read (check its permissions)"
        case .spill(let reason):
            "cannot hold a large metric's points in a temporary file (\(reason)); set TMPDIR to a writable folder"
        }
    }
}
