import Testing

/// The storages the collector's suites run against: every HTTP test runs on both.
enum CollectorBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}
