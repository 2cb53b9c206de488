import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to the loopback server, for requests no HTTP client would make: a
/// body sent in two halves with a pause between them.
///
/// The socket never blocks: waiting is a short task sleep. A blocking call would hold one of the
/// few threads Swift concurrency has, and the in-process collector's handlers need them to answer.
public final class RawHTTPConnection {
    private let socket: Int32
    /// Received and not yet returned.
    private var unread: [UInt8] = []
    private static let pause = Duration.milliseconds(5)

    public init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(socket) }

    public func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) async throws {
        var offset = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK, ContinuousClock.now < deadline {
                try await Task.sleep(for: Self.pause)
            } else {
                throw POSIXError(.EPIPE)
            }
        }
    }

    /// One whole response: its head and the body its Content-Length announces (all the server
    /// sent, if it closes first or 10 s pass). What follows stays for the next call, so pipelined
    /// answers come apart.
    public func readResponse() async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if let length = completeResponseLength() {
                defer { unread.removeFirst(length) }
                return String(decoding: unread[0..<length], as: UTF8.self)
            }
            switch receive() {
            case .bytes(let bytes): unread += bytes
            case .nothingYet where ContinuousClock.now < deadline: try await Task.sleep(for: Self.pause)
            case .nothingYet, .closed, .reset:
                defer { unread = [] }
                return String(decoding: unread, as: UTF8.self)
            }
        }
    }

    /// What arrives next (and what was kept unread), waiting at most `seconds` for it: "" when
    /// nothing came or the server closed the connection.
    public func readAvailable(within seconds: Int = 10) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while unread.isEmpty {
            switch receive() {
            case .bytes(let bytes): unread += bytes
            case .nothingYet where ContinuousClock.now < deadline: try await Task.sleep(for: Self.pause)
            case .nothingYet, .closed, .reset: return ""
            }
        }
        defer { unread = [] }
        return String(decoding: unread, as: UTF8.self)
    }

    /// Whether the server has sent anything or closed the connection yet (what it sent is kept
    /// for `readResponse`): never waits.
    public func hasAnswered() -> Bool {
        switch receive() {
        case .bytes(let bytes):
            unread += bytes
            return true
        case .nothingYet: return !unread.isEmpty
        case .closed, .reset: return true
        }
    }

    /// Whether the server closes the connection within `seconds` (reading and dropping whatever
    /// it sends first): what an idle timeout does.
    public func closedByServer(within seconds: Int) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            switch receive() {
            case .bytes: continue
            case .closed, .reset: return true
            case .nothingYet where ContinuousClock.now < deadline: try await Task.sleep(for: Self.pause)
            case .nothingYet: return false
            }
        }
    }

    private enum Received {
        case bytes([UInt8])
        case nothingYet
        case closed
        case reset
    }

    private func receive() -> Received {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(socket, &buffer, buffer.count, 0)
        if count > 0 { return .bytes(Array(buffer[0..<count])) }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .nothingYet : .reset
    }

    /// The length of the first response in `unread` once all of it arrived.
    private func completeResponseLength() -> Int? {
        guard let headEnd = unread.firstRange(of: Array("\r\n\r\n".utf8))?.lowerBound else { return nil }
        let head = String(decoding: unread[0..<headEnd], as: UTF8.self).lowercased()
        let declared = head.split(separator: "\r\n").lazy.compactMap { line -> Int? in
            guard line.hasPrefix("content-length:") else { return nil }
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        }.first
        let length = headEnd + 4 + (declared ?? 0)
        return unread.count >= length ? length : nil
    }
}
