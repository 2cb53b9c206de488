/// What went wrong while writing an export, worded for the person who ran it: what failed and where.
struct GeneratorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
