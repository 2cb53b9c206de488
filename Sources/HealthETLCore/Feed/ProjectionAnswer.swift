/// A conditional projection pull: unchanged since the ETag sent, or the rows and their ETag.
public enum ProjectionAnswer: Sendable, Equatable {
    case notModified
    case fresh(ProjectionData, etag: String?)
}
