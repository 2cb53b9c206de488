#if canImport(Glibc)
    import Glibc
#endif

/// Whether a URL's host is this machine, where plain HTTP never crosses a network.
enum LoopbackHost {
    /// `localhost`, 127.0.0.0/8, `::1` and `::ffff:127.x.y.z`; names are not resolved, so
    /// `127.0.0.1.example.org` or `localhost.example.org` are not loopback.
    static func contains(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        let isLoopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        let isMappedLoopback =
            bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
        return isLoopback || isMappedLoopback
    }
}
