/// Where a queued batch is in its life: `pending → in_flight → done`, or `failed` (to be tried
/// again at its next-attempt time) and finally `dead`.
public enum QueueState: Int, Sendable, CaseIterable, Codable {
    case pending = 0
    case inFlight = 1
    case failed = 2
    case done = 3
    case dead = 4

    /// The name in reports and `--json`.
    public var name: String {
        switch self {
        case .pending: "pending"
        case .inFlight: "in_flight"
        case .failed: "failed"
        case .done: "done"
        case .dead: "dead"
        }
    }
}
