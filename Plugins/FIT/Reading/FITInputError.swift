/// An input the `fit` source cannot open at all.
struct FITInputError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "\(path): \(reason)" }
}
