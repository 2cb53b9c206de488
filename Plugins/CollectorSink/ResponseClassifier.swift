import AsyncHTTPClient
import Foundation
import HealthETLCore
import HealthETLWire
import NIOCore

/// Sorts the collector's failure answers and transport failures into the two kinds the retry
/// queue needs: worth another attempt later, or never going to succeed for this request.
///
/// | what happened | `DeliveryError` |
/// |---|---|
/// | timeout, connection refused / reset / closed before an answer, 408, 409, 425, 429, 5xx | `.retryable` (`Retry-After` → `notBeforeSeconds`) |
/// | 401, 403 | `.unauthorized`, telling the user to check the token |
/// | 3xx (redirects are not followed: they would carry the token elsewhere) | `.permanent` |
/// | any other 4xx (400, 404, 413, 415, 422, …) | `.permanent`, with the collector's error code and message |
enum ResponseClassifier {
    /// A non-2xx answer.
    /// - Parameters:
    ///   - subject: what was asked, for the reason (`batch 0f3a…`, `daily rollups`).
    ///   - retryAfter: the `Retry-After` header; `location`: the `Location` header.
    static func classify(
        status: Int, retryAfter: String?, location: String?, body: [UInt8], now: Instant, subject: String
    ) -> DeliveryError {
        let detail = errorDetail(body)
        let answered = "the collector answered \(subject) with HTTP \(status)\(detail)"
        switch status {
        case 408, 409, 425, 429, 500...599:
            return .retryable(reason: answered, notBeforeSeconds: RetryAfter.seconds(retryAfter, now: now))
        case 401, 403:
            return .unauthorized(
                reason: answered
                    + "; check that the token file (or the \(CollectorToken.credentialName) credential) "
                    + "holds the token the collector's tokens file lists for you")
        case 300...399:
            let target = location.map { " to \(printable($0, limit: 200))" } ?? ""
            return .permanent(
                reason: answered
                    + ", a redirect\(target); set the endpoint to the URL the collector is served at")
        case 400...499:
            return .permanent(reason: answered)
        default:
            // 1xx or nonsense: nothing says the batch is at fault, so try again later.
            return .retryable(reason: answered + ", which is not an answer it gives", notBeforeSeconds: nil)
        }
    }

    /// A request that got no answer.
    static func transportFailure(_ error: any Error, subject: String, timeout: Duration) -> DeliveryError {
        let reason: String
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                reason = "the collector did not answer \(subject) within \(timeout.seconds) s"
            case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                reason = "could not connect to the collector for \(subject) in time"
            case .remoteConnectionClosed:
                reason = "the connection closed before the collector answered \(subject)"
            case .cancelled:
                reason = "\(subject) was cancelled before the collector answered"
            default:
                // `shortDescription` has no associated values, so no header value can leak.
                reason = "the HTTP client failed on \(subject): \(client.shortDescription)"
            }
        } else if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED: reason = "the collector refused the connection for \(subject); is it running?"
            case ECONNRESET, EPIPE:
                reason = "the connection was reset before the collector answered \(subject)"
            default: reason = "could not reach the collector for \(subject): \(io)"
            }
        } else if error is CancellationError {
            reason = "\(subject) was cancelled before the collector answered"
        } else {
            // DNS, TLS and connection errors: the network or the server, not the batch.
            reason =
                "could not reach the collector for \(subject): \(printable(String(describing: error), limit: 300))"
        }
        return .retryable(reason: reason, notBeforeSeconds: nil)
    }

    /// ` (code: message)` from the collector's `{error, message}` body, or nothing.
    private static func errorDetail(_ body: [UInt8]) -> String {
        guard let error = try? JSONDecoder().decode(WireError.self, from: Data(body)) else { return "" }
        return " (\(printable(error.error, limit: 64)): \(printable(error.message, limit: 300)))"
    }

    /// Server text, shortened and without control characters, safe for one log line.
    private static func printable(_ text: String, limit: Int) -> String {
        let cleaned = String(
            text.unicodeScalars.filter {
                $0.properties.generalCategory != .control && !$0.properties.isDefaultIgnorableCodePoint
            })
        return cleaned.count > limit ? String(cleaned.prefix(limit)) + "…" : cleaned
    }
}
