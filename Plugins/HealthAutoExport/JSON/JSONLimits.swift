/// What one JSON text may hold before it is refused as hostile: a reader's memory stays bounded
/// by these, whatever the file's size.
struct JSONLimits: Sendable {
    /// Bytes of one string after unescaping (HAE's longest real strings are route-free names).
    var stringBytes = 1 << 20
    /// Characters of one number as written.
    var numberBytes = 64
    /// Nested arrays and objects.
    var depth = 64
}
