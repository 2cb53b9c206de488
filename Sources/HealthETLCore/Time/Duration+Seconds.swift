extension Duration {
    /// The duration in seconds, for reports and rates.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
