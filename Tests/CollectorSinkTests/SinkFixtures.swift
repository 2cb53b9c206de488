import CollectorSink
import HealthETLCore
import Logging
import Testing

/// Samples, batches and sinks the sink tests share.
enum SinkFixtures {
    static let quiet: Logger = {
        var logger = Logger(label: "collector-sink-test")
        logger.logLevel = .warning
        return logger
    }()

    /// A sample as the store would hold it, its id made from its content.
    static func sample(
        _ metric: String, source: String = "Apple Watch", start: String, end: String, value: Double? = nil,
        category: String? = nil
    ) -> Sample {
        let startInstant = TimestampParser.parse(start)!.instant
        let endInstant = TimestampParser.parse(end)!.instant
        let id = ContentID(
            metric: metric, source: source, start: startInstant, end: endInstant,
            value: value.map { "\($0)" } ?? category, unit: nil)
        return Sample(
            id: id, metric: metric, sourceName: source, start: startInstant, end: endInstant,
            utcOffsetSeconds: 0, value: value,
            category: category)
    }

    static let steps = [
        sample("step_count", start: "2026-01-05T10:00:00Z", end: "2026-01-05T10:10:00Z", value: 600),
        sample("step_count", start: "2026-01-05T11:00:00Z", end: "2026-01-05T11:10:00Z", value: 400),
        sample("step_count", start: "2026-01-05T12:00:00Z", end: "2026-01-05T12:10:00Z", value: 250),
    ]

    static func day(_ text: String) -> CivilDate { CivilDate(text: text)! }

    /// A sink over its own client, shut down however `body` ends.
    static func withSink<T>(
        _ configuration: CollectorSinkConfiguration,
        now: @escaping @Sendable () -> Instant = Clock.system.now,
        _ body: (CollectorSink) async throws -> T
    ) async throws -> T {
        let sink = CollectorSink(configuration: configuration, logger: quiet, clock: .following(now))
        do {
            let result = try await body(sink)
            try await sink.shutdown()
            return result
        } catch {
            try? await sink.shutdown()
            throw error
        }
    }

    /// The `DeliveryError` an operation fails with; nil (and a recorded issue) if it succeeded.
    static func failure<T>(
        _ operation: () async throws(DeliveryError) -> T, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> DeliveryError? {
        do {
            _ = try await operation()
            Issue.record("expected a DeliveryError", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }
}

extension DeliveryError {
    /// `notBeforeSeconds` of a retryable error; nil for a permanent one.
    var retryAfter: Double?? {
        if case .retryable(_, let seconds) = self { return .some(seconds) }
        return nil
    }

    var isRetryable: Bool {
        if case .retryable = self { return true }
        return false
    }

    var isPermanent: Bool { !isRetryable }

    var isUnauthorized: Bool {
        if case .unauthorized = self { return true }
        return false
    }

    var reason: String {
        switch self {
        case .retryable(let reason, _), .permanent(let reason), .unauthorized(let reason): reason
        }
    }
}
