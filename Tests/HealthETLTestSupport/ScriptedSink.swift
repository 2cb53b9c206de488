import Foundation
import HealthETLCore

/// A sink with an in-memory far end that follows a script of faults: what the sink
/// conformance suite checks itself against, and a fast sink for tests of what sits in front of
/// sinks. Its far end stores samples by id, applies deletions, refuses per item what the
/// catalog does not know, answers a batch id again with its first receipt, and computes daily
/// rollups with the core's calculator.
public final class ScriptedSink: SampleSink, @unchecked Sendable {
    public static let name = "scripted"
    public static let summary = "an in-memory far end with scripted faults, for tests"
    public static let capabilities: SinkCapabilities = [.deletions, .projections]

    /// What the far end holds; shared by every sink made over it.
    public final class FarEnd: @unchecked Sendable {
        let catalog: MetricCatalog
        private let lock = NSLock()
        private var samples: [ContentID: Sample] = [:]
        private var receipts: [String: DeliveryReceipt] = [:]
        private var deliveries: [DeliveryBatch] = []

        public init(catalog: MetricCatalog) {
            self.catalog = catalog
        }

        public var sampleIDs: Set<ContentID> { lock.withLock { Set(samples.keys) } }

        func apply(_ batch: DeliveryBatch) -> DeliveryReceipt {
            lock.withLock {
                if let earlier = receipts[batch.batchID] { return earlier }
                var receipt = DeliveryReceipt(accepted: 0)
                for sample in batch.samples {
                    guard catalog.metric(named: sample.metric) != nil else {
                        receipt.rejected.append(ItemRejection(id: sample.id, reason: "unknown metric \(sample.metric)"))
                        continue
                    }
                    samples[sample.id] = sample
                    receipt.accepted += 1
                }
                for deletion in batch.deletions {
                    samples[deletion.sampleID] = nil
                    receipt.accepted += 1
                }
                receipts[batch.batchID] = receipt
                return receipt
            }
        }

        func samples(of metric: String) -> [Sample] {
            lock.withLock { samples.values.filter { $0.metric == metric } }
        }

        /// Payloads are tokens for the batches they stand for.
        func register(_ batch: DeliveryBatch) -> [UInt8] {
            lock.withLock {
                deliveries.append(batch)
                return Array("\(deliveries.count - 1)".utf8)
            }
        }

        func batch(for payload: [UInt8]) -> DeliveryBatch? {
            lock.withLock {
                Int(String(decoding: payload, as: UTF8.self)).flatMap {
                    deliveries.indices.contains($0) ? deliveries[$0] : nil
                }
            }
        }
    }

    private let farEnd: FarEnd
    private let lock = NSLock()
    private var faults: [SinkFault]
    private let timeout: Duration

    public init(farEnd: FarEnd, faults: [SinkFault] = [], timeout: Duration = .milliseconds(200)) {
        self.farEnd = farEnd
        self.faults = faults
        self.timeout = timeout
    }

    public static func make(_ settings: PluginSettings, environment: [String: String]) throws -> ScriptedSink {
        ScriptedSink(farEnd: FarEnd(catalog: try MetricCatalog.bundled()))
    }

    public func encode(_ batch: DeliveryBatch) throws -> [UInt8] {
        farEnd.register(batch)
    }

    public func deliver(batchID: String, payload: [UInt8]) async throws(DeliveryError) -> DeliveryReceipt {
        guard let batch = farEnd.batch(for: payload), batch.batchID == batchID else {
            throw .permanent(reason: "the far end cannot read batch \(batchID)")
        }
        let fault = lock.withLock { faults.isEmpty ? nil : faults.removeFirst() }
        switch fault {
        case .unavailable:
            throw .retryable(reason: "the far end is unavailable", notBeforeSeconds: nil)
        case .throttled(let seconds):
            throw .retryable(reason: "the far end asked to wait", notBeforeSeconds: Double(seconds))
        case .slowerThanTheTimeout:
            // The far end takes the batch, but answers after the sink stopped waiting.
            _ = farEnd.apply(batch)
            try? await Task.sleep(for: timeout)
            throw .retryable(reason: "the far end did not answer within \(timeout)", notBeforeSeconds: nil)
        case .refused:
            throw .permanent(reason: "the far end refuses batch \(batchID)")
        case nil:
            return farEnd.apply(batch)
        }
    }

    public func dailyRollups(metric: String, from: CivilDate, to: CivilDate) async throws(DeliveryError)
        -> [DailyRollup]
    {
        guard let definition = farEnd.catalog.metric(named: metric)?.definition else {
            throw .permanent(reason: "unknown metric \(metric)")
        }
        let days = Set((0...(to.daysSinceEpoch - from.daysSinceEpoch)).map { from.adding(days: $0) })
        let computedAt = Clock.system.now()
        return DailyRollupCalculator(metric: definition).rollups(for: farEnd.samples(of: metric), days: days).map {
            var rollup = $0
            rollup.computedAt = computedAt
            return rollup
        }
    }
}
