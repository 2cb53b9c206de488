/// Why the collector cannot start: each says what to do about it.
public struct CollectorError: Error, CustomStringConvertible, Sendable {
    public let description: String

    package init(_ description: String) { self.description = description }
}
