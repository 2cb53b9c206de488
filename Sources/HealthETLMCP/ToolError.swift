/// A tool call that cannot be answered as asked: the text tells the model what to change, and
/// the call's result carries it with `isError`, never as a protocol error.
public struct ToolError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
