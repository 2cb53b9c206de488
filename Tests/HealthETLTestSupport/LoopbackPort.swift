import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Ports on 127.0.0.1 for servers a test starts with a fixed port (PostgreSQL, a metrics
/// listener), and sockets a test listens on itself.
public enum LoopbackPort {
    /// A port nothing listens on now: bound to port 0 and released.
    public static func free() throws -> Int {
        let (socket, port) = try bound(listening: false)
        close(socket)
        return Int(port)
    }

    /// A TCP socket bound to a free port of 127.0.0.1 (listening, when asked), and its port.
    public static func bound(listening: Bool) throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 8) == 0)
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}
