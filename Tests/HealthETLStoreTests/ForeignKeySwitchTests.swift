import HealthETLSQLite
import HealthETLTestSupport
import Testing

/// Foreign keys left off between bodies that suspend them, and enforced again before anything
/// else runs: commits one after another keep their statements prepared.
@Suite struct ForeignKeySwitchTests {
    let directory = TemporaryDirectory("foreign-key-switch")

    func connection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection.open(
            in: DatabaseDirectory(path: directory.child("db")), profile: .store, migrations: [], nowMilliseconds: 0)
        #expect(try connection.scalar("PRAGMA foreign_keys") == 1)
        try connection.execute(
            """
            CREATE TABLE parents(id INTEGER PRIMARY KEY);
            CREATE TABLE children(parent INTEGER NOT NULL REFERENCES parents(id));
            INSERT INTO parents(id) VALUES (1);
            """)
        return connection
    }

    @Test func suspensionsInARowPrepareTheirStatementsOnce() throws {
        let connection = try connection()
        let insert = try connection.prepare("INSERT INTO children(parent) VALUES (?1)")
        for round in 0..<5 {
            try connection.withoutForeignKeyEnforcement {
                try connection.writeTransaction { _ = try insert.run(.integer(1)) }
            }
            // The first switch prepares it again; the ones after it find the keys still off.
            #expect(insert.timesPreparedAgain == 1, "round \(round)")
        }
        // Not enforced inside a body: a row without its parent goes in.
        try connection.withoutForeignKeyEnforcement { _ = try insert.run(.integer(2)) }
        #expect(try connection.scalar("SELECT count(*) FROM children") == 6)
    }

    @Test func theNextStatementOutsideRunsWithForeignKeysEnforced() throws {
        let connection = try connection()
        let insert = try connection.prepare("INSERT INTO children(parent) VALUES (?1)")
        try connection.withoutForeignKeyEnforcement { _ = try insert.run(.integer(1)) }
        // A prepared statement, then `execute`, then a query: each sees the keys enforced.
        #expect(throws: SQLiteError.self) { _ = try insert.run(.integer(2)) }
        try connection.withoutForeignKeyEnforcement {}
        #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO children(parent) VALUES (3)") }
        try connection.withoutForeignKeyEnforcement {}
        #expect(try connection.scalar("PRAGMA foreign_keys") == 1)
        #expect(try connection.scalar("SELECT count(*) FROM children WHERE parent <> 1") == 0)
    }
}
