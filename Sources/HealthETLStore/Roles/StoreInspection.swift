/// Looking at the store as a whole: `status`, SQLite's consistency check, the schema's history.
public protocol StoreInspection: AnyObject {
    func status() throws -> StoreStatus
    func integrityCheck() throws -> [String]
    func appliedMigrations() throws -> [String]
}

extension Store: StoreInspection {}
