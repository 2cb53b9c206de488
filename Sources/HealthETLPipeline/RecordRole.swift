/// What a record was in the input, for counting: a top-level record, a correlation, a record
/// nested in a correlation, or a record derived from another file.
enum RecordRole: Sendable {
    case record, correlation, component, auxiliary
}
