import HealthETLCore

/// What a sink's conformance test gives the suite: the sink under test with a scripted far end.
public protocol SinkTestBench: Sendable {
    /// A sink whose next deliveries meet `faults` in order, then reach a working far end (the
    /// same far end on every call). The suite shuts it down.
    func sink(meeting faults: [SinkFault]) async throws -> any SampleSink
    /// The ids of the samples the far end holds now.
    func storedSampleIDs() async throws -> Set<ContentID>
    /// Waits until the far end has answered every request it was sent (a slow reply lands late).
    func settle() async throws
}
