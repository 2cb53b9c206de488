/// A pushed body that is not Health Auto Export's JSON, and where it stops being so.
public struct HealthAutoExportError: Error, CustomStringConvertible, Sendable {
    public var reason: String
    public var description: String { "not Health Auto Export JSON: \(reason)" }
}
