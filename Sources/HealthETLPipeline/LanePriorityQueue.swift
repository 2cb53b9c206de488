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

    /// The newest job of `lane` that `take` takes (gives a value for), with `placeholder` left
    /// in its place.
    mutating func takeNewest<Taken>(of lane: Lane, leaving placeholder: Job, _ take: (Job) -> Taken?) -> Taken? {
        guard let jobs = waiting[lane] else { return nil }
        for index in jobs.indices.reversed() {
            if let taken = take(jobs[index]) {
                waiting[lane]![index] = placeholder
                return taken
            }
        }
        return nil
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
