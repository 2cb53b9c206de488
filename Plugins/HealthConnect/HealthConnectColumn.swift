/// One column of a table as the database declares it.
public struct HealthConnectColumn: Hashable, Sendable {
    public var name: String
    /// The declared type (`INTEGER`, `REAL`, `TEXT`, `BLOB`), as written.
    public var declaredType: String
    /// A generated column (the local-time columns of schema 10 on), computed from others.
    public var isGenerated: Bool

    public init(name: String, declaredType: String, isGenerated: Bool = false) {
        self.name = name
        self.declaredType = declaredType
        self.isGenerated = isGenerated
    }
}
