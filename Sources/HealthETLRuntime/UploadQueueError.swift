/// A queue action that found nothing to act on.
public enum UploadQueueError: Error, Equatable, CustomStringConvertible {
    /// No failed or dead batch has this id.
    case noSuchBatch(String)

    public var description: String {
        switch self {
        case .noSuchBatch(let id): "no failed or dead batch \(id) in the queue; see `healthetl queue`"
        }
    }
}
