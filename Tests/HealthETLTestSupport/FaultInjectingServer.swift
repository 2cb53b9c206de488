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
        /// Passes the request through to the server on this loopback port (the real collector)
        /// and relays its answer.
        case forward(to: Int)
        /// Passes the request through, lets that server store it and answer, then resets the
        /// client's connection without relaying anything: "connection reset after the body was
        /// sent", with the batch stored.
        case forwardThenReset(to: Int)
        /// Answers 200 with `headers` and no length, then sends `chunk` again and again until the
        /// client closes the connection (or stops reading for 10 s) or `upTo` bytes went out:
        /// a stream that never finishes what it started.
        case endless(headers: [String: String], chunk: [UInt8], upTo: Int)

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

    /// A request and when the server held it: from the moment its body was read until its
    /// action ended (answer sent, connection closed or reset).
    public struct Exchange: Sendable {
        public let request: Request
        public let started: ContinuousClock.Instant
        /// Nil while the action is still running.
        public let finished: ContinuousClock.Instant?
        /// The status the forwarded-to server answered with (forwarding actions only).
        public let forwardedStatus: Int?
        /// Bytes of the repeated chunk sent (`endless` only; nil while it still sends).
        public let endlessBytesSent: Int?
    }

    public let port: Int
    private let lock = NSLock()
    private var script: [Action]
    private var received: [Request] = []
    private var started: [ContinuousClock.Instant] = []
    private var finished: [Int: ContinuousClock.Instant] = [:]
    private var forwardedStatuses: [Int: Int] = [:]
    private var endlessBytes: [Int: Int] = [:]
    private let afterScript: Action?
    private let answering: (@Sendable (Request) -> Action?)?
    private var stopped = false

    /// Requests past the end of the script get this.
    private static let exhausted = Action.json(
        status: 500, #"{"error":"script_exhausted","message":"no more scripted answers"}"#)
    private static let maximumHeadBytes = 64 << 10
    private static let maximumBodyBytes = 64 << 20

    /// Starts listening on 127.0.0.1 on a free port.
    /// - Parameters:
    ///   - afterScript: the action for requests past the end of the script (default: a 500
    ///     `script_exhausted` answer).
    ///   - answering: the action for a request by what it asks (its method and target), before
    ///     the script; `nil` leaves the request to the script.
    public init(
        script: [Action], afterScript: Action? = nil, answering: (@Sendable (Request) -> Action?)? = nil
    ) throws {
        self.script = script
        self.afterScript = afterScript
        self.answering = answering
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

    /// Appends actions to the script (for requests not read yet).
    public func append(_ actions: [Action]) {
        lock.withLock { script += actions }
    }

    /// Every request read so far with when it was held, in arrival order.
    public var exchanges: [Exchange] {
        lock.withLock {
            received.indices.map {
                Exchange(
                    request: received[$0], started: started[$0], finished: finished[$0],
                    forwardedStatus: forwardedStatuses[$0], endlessBytesSent: endlessBytes[$0])
            }
        }
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
        let routed = answering?(request)
        let (action, index): (Action, Int) = lock.withLock {
            received.append(request)
            started.append(ContinuousClock.now)
            let next = routed ?? (script.isEmpty ? afterScript ?? Self.exhausted : script.removeFirst())
            return (next, received.count - 1)
        }
        perform(action, request: request, index: index, on: connection)
        lock.withLock { finished[index] = ContinuousClock.now }
    }

    private func perform(_ action: Action, request: Request, index: Int, on connection: Int32) {
        switch action {
        case .respond(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) Scripted\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            Self.send(Array((head + "\r\n").utf8) + body, on: connection)
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        case .delay(let seconds, let next):
            Thread.sleep(forTimeInterval: seconds)
            perform(next, request: request, index: index, on: connection)
        case .closeAfterBody:
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        case .resetAfterBody:
            // A zero linger time makes close() send RST instead of FIN.
            var option = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
            close(connection)
        case .forward(let port):
            guard let answer = Self.forward(request, to: port) else {
                // The real server could not be reached: the client sees a reset.
                return perform(.resetAfterBody, request: request, index: index, on: connection)
            }
            lock.withLock { forwardedStatuses[index] = answer.status }
            Self.send(answer.bytes, on: connection)
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        case .forwardThenReset(let port):
            if let answer = Self.forward(request, to: port) {
                lock.withLock { forwardedStatuses[index] = answer.status }
            }
            perform(.resetAfterBody, request: request, index: index, on: connection)
        case .endless(let headers, let chunk, let limit):
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var head = "HTTP/1.1 200 Scripted\r\nConnection: close\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            var sent = 0
            if Self.send(Array((head + "\r\n").utf8), on: connection) {
                while sent < limit, !isStopped, Self.send(chunk, on: connection) { sent += chunk.count }
            }
            lock.withLock { endlessBytes[index] = sent }
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }

    /// Sends `request` to 127.0.0.1:`port` on a new connection and reads the whole answer,
    /// rewritten to close the connection after it (as every answer of this server does).
    /// - Returns: the status and the answer's bytes, or nil when the server could not be reached
    ///   or did not answer within 30 s.
    private static func forward(_ request: Request, to port: Int) -> (status: Int, bytes: [UInt8])? {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard upstream >= 0 else { return nil }
        defer { close(upstream) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(upstream, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let hopByHop: Set<String> = [
            "connection", "keep-alive", "content-length", "transfer-encoding", "expect",
        ]
        var head = "\(request.method) \(request.target) HTTP/1.1\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) where !hopByHop.contains(name) {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
        send(Array(head.utf8) + request.body, on: upstream)

        // The answer's head, then a Content-Length body (or everything up to the close).
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let count = recv(upstream, &chunk, chunk.count, 0)
            guard count > 0, buffer.count < maximumHeadBytes else { return nil }
            buffer += chunk[0..<count]
            headEnd = buffer.firstRange(of: separator)?.lowerBound
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: buffer[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var length: Int?
        var headers: [String] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            if name == "content-length" {
                length = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            if name != "connection" && name != "keep-alive" { headers.append(line) }
        }
        var body = Array(buffer[(headEnd + separator.count)...])
        while length.map({ body.count < $0 }) ?? true {
            let count = recv(upstream, &chunk, chunk.count, 0)
            if count == 0, length == nil { break }
            guard count > 0 else { return nil }
            body += chunk[0..<count]
        }
        let rewritten = ([lines[0]] + headers + ["Connection: close", "", ""]).joined(separator: "\r\n")
        return (status, Array(rewritten.utf8) + body)
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

    /// Whether all of `bytes` went out.
    @discardableResult
    private static func send(_ bytes: [UInt8], on connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a client that already gave up must not kill the test process with SIGPIPE.
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
