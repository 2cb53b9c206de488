/// Receives a source adapter's events; the pipeline's normalizer and store writer sit behind it.
public protocol SourceEventHandler {
    /// - Throws: to stop the adapter (the store failed, the user cancelled).
    mutating func receive(_ event: consuming SourceEvent) throws
}
