import HealthETLCore

/// Batches waiting for the one store writer, a bounded queue per lane. Hot work is taken first,
/// then changes, then cold: under load a backfill never delays what just happened. Within a
/// lane the order is kept, since the lane's cursors must only move forward.
struct LanePriorityQueue<Job> {
    static var priority: [Lane] { [.hot, .change, .cold] }

    private var waiting: [Lane: [Job]] = [:]
    let capacityPerLane: Int

    init(capacityPerLane: Int) {
        self.capacityPerLane = capacityPerLane
    }

    func hasRoom(for lane: Lane) -> Bool { (waiting[lane]?.count ?? 0) < capacityPerLane }

    var isEmpty: Bool { waiting.values.allSatisfy(\.isEmpty) }

    mutating func push(_ job: Job, lane: Lane) {
        waiting[lane, default: []].append(job)
    }

    /// The oldest job of the most urgent lane that has one.
    mutating func pop() -> (lane: Lane, job: Job)? {
        for lane in Self.priority {
            if var jobs = waiting[lane], !jobs.isEmpty {
                let job = jobs.removeFirst()
                waiting[lane] = jobs
                return (lane, job)
            }
        }
        return nil
    }
}
