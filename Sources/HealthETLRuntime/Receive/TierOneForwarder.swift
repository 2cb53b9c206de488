import HealthETLCore

/// Sends the tier-1 samples each push commits to the configured collector at once, one send at a
/// time: pushes that land while a send runs are covered by the next, so none waits on another's
/// network. What fails stays queued at tier 1 for `healthetl upload`.
actor TierOneForwarder {
    private let sender: RealTimeSender
    private var mark: Int64
    private var running = false
    private var again = false
    private let report: @Sendable (String) -> Void

    init(sender: RealTimeSender, after mark: Int64, report: @escaping @Sendable (String) -> Void) {
        self.sender = sender
        self.mark = mark
        self.report = report
    }

    /// A push committed: send what is new, now or right after the send under way.
    func poke() {
        guard !running else {
            again = true
            return
        }
        running = true
        Task { await self.drain() }
    }

    private func drain() async {
        repeat {
            again = false
            do {
                let (sentTo, outcome) = try await sender.send(afterSequence: mark)
                mark = sentTo
                if outcome.failedAttempts > 0 {
                    report(
                        "tier-1 forwarding: \(outcome.failedAttempts) failed attempts; `healthetl upload` retries them")
                }
            } catch {
                report("tier-1 forwarding failed: \(error); `healthetl upload` sends it later")
            }
        } while again
        running = false
    }
}
