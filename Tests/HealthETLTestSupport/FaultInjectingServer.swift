import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 that answers each request with the next scripted action,
/// to test how a client classifies failures: error statuses with any headers, an answer later
/// than the client's timeout, a connection closed or reset after the whole body was read.
///
/// Plain sockets and one thread per connection, so it needs nothing beyond Foundation and can
/// misbehave in ways a real server framework does not allow. Every answer closes the connection.
/// Call `stop()` when done (or let it go: the accept loop ends within 100 ms of release).
public final class FaultInjectingServer: @unchecked Sendable {
    /// What to do with one request, once its head and body were read.
    public indirect enum Action: Sendable {
        case respond(status: Int, headers: [String: String] = [:], body: [UInt8] = [])
        /// Waits, then does the next action (a client that gave up by then sees nothing).
        case delay(seconds: Double, then: Action)
        /// Closes the connection without answering (FIN).
        case closeAfterBody
        /// Resets the connection without answering (RST).
        case resetAfterBody

        /// A JSON answer with `Content-Type: application/json`.
        public static func json(status: Int, _ text: String, headers: [String: String] = [:]) -> Action {
            var all = headers
            all["Content-Type"] = "application/json"
            return .respond(status: status, headers: all, body: Array(text.utf8))
        }
    }

    /// A request as the server read it; header names lowercased.
    public struct Request: Sendable {
        public let method: String
        public let target: String
        public let headers: [String: String]
        public let body: [UInt8]
    }

    public let port: Int
    private let lock = NSLock()
    private var script: [Action]
    private var received: [Request] = []
    private var stopped = false

    /// Requests past the end of the script get this.
    private static let exhausted = Action.json(
        status: 500, #"{"error":"script_exhausted","message":"no more scripted answers"}"#)
    private static let maximumHeadBytes = 64 << 10
    private static let maximumBodyBytes = 64 << 20

    /// Starts listening on 127.0.0.1 on a free port.
    public init(script: [Action]) throws {
        self.script = script
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        // The thread holds the server weakly, so releasing the server ends the loop too.
        Thread.detachNewThread { [weak self] in
            Self.acceptLoop(listener: listener, server: { self })
        }
    }

    /// Every request read so far, in arrival order.
    public var requests: [Request] {
        lock.withLock { received }
    }

    /// Stops accepting; connections already open finish their action.
    public func stop() {
        lock.withLock { stopped = true }
    }

    deinit { stop() }

    private var isStopped: Bool { lock.withLock { stopped } }

    private static func acceptLoop(listener: Int32, server: () -> FaultInjectingServer?) {
        defer { close(listener) }
        while let current = server(), !current.isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Thread.detachNewThread { current.serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = Self.readRequest(connection) else {
            close(connection)
            return
        }
        let action: Action = lock.withLock {
            received.append(request)
            return script.isEmpty ? Self.exhausted : script.removeFirst()
        }
        perform(action, on: connection)
    }

    private func perform(_ action: Action, on connection: Int32) {
        switch action {
        case .respond(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) Scripted\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            Self.send(Array((head + "\r\n").utf8) + body, on: connection)
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        case .delay(let seconds, let next):
            Thread.sleep(forTimeInterval: seconds)
            perform(next, on: connection)
        case .closeAfterBody:
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        case .resetAfterBody:
            // A zero linger time makes close() send RST instead of FIN.
            var option = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
            close(connection)
        }
    }

    /// The request head and its `Content-Length` body, or nil if the client went away first.
    private static func readRequest(_ connection: Int32) -> Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            guard buffer.count < maximumHeadBytes else { return nil }
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
            headEnd = buffer.firstRange(of: separator)?.lowerBound
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: buffer[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard length <= maximumBodyBytes else { return nil }
        var body = Array(buffer[(headEnd + separator.count)...])
        while body.count < length {
            let count = recv(connection, &chunk, min(chunk.count, length - body.count), 0)
            guard count > 0 else { return nil }
            body += chunk[0..<count]
        }
        return Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    private static func send(_ bytes: [UInt8], on connection: Int32) {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a client that already gave up must not kill the test process with SIGPIPE.
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return }
            offset += sent
        }
    }
}
