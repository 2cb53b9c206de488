/// An input that cannot be read at all.
enum HAEInputError: Error, CustomStringConvertible {
    case missing(path: String)
    case unreadable(path: String)

    var description: String {
        switch self {
        case .missing(let path): "\(path) does not exist"
        case .unreadable(let path): "\(path) cannot be read (check its permissions)"
        }
    }
}
