/// Points inside a commit where tests inject a failure, to prove a batch is all or nothing.
package enum CommitStage: Sendable {
    /// Rows are written, cursors are not.
    case afterRows
    /// Rows and cursors are written, the transaction is not committed.
    case beforeCommit
}
